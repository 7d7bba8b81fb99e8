import { afterEach, describe, expect, it, vi } from "vitest";

import { blockF12 } from "./blockF12";

function press(key: string): { event: KeyboardEvent; reached: boolean } {
  const reached = vi.fn();
  document.body.addEventListener("keydown", reached);
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true });
  document.body.dispatchEvent(event);
  document.body.removeEventListener("keydown", reached);
  return { event, reached: reached.mock.calls.length > 0 };
}

describe("blockF12", () => {
  let release: () => void = () => undefined;
  afterEach(() => release());

  it("swallows F12 before anything on the page sees it", () => {
    release = blockF12(window);
    const { event, reached } = press("F12");
    expect(event.defaultPrevented).toBe(true);
    expect(reached).toBe(false);
  });

  it("lets every other key through", () => {
    release = blockF12(window);
    for (const key of ["F11", "Enter", "a", "Escape"]) {
      const { event, reached } = press(key);
      expect(event.defaultPrevented, key).toBe(false);
      expect(reached, key).toBe(true);
    }
  });

  it("stops blocking once released", () => {
    blockF12(window)();
    expect(press("F12").event.defaultPrevented).toBe(false);
  });
});
