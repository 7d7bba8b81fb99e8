import { act, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { openGame } from "../features/games/gameSlice";
import { loggedOut, skinConfig, stubBff } from "../test/bff";
import { renderAppAt } from "../test/app";

/** The paths the app fetched, in order (scripts are not fetched in tests: the calls are). */
function calledPaths(fetchMock: ReturnType<typeof stubBff>): string[] {
  return fetchMock.mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input)).pathname);
}

afterEach(() => {
  delete (Element.prototype as Partial<Element>).scrollIntoView;
  localStorage.clear();
});

describe("what the layout loads only when it is needed", () => {
  it("counts an affiliate link's hit from any page of the app", async () => {
    const fetchMock = stubBff({
      "/bff/config": skinConfig,
      "/bff/session": loggedOut,
      "/api/affiliateHistory/getHitCountSummary": { success: true },
    });

    renderAppAt("/promotions?ID=AFF77&type=affiliate&click_id=c-1");

    await waitFor(() => expect(calledPaths(fetchMock)).toContain("/api/affiliateHistory/getHitCountSummary"));
    expect(localStorage.getItem("affCid")).toBe("AFF77");
  });

  it("opens a launched game's frame over the page", async () => {
    // The frame scrolls itself into view, which jsdom does not do.
    Element.prototype.scrollIntoView = vi.fn();
    vi.spyOn(window, "scrollTo").mockImplementation(() => undefined);
    stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut });
    const { store } = renderAppAt("/home");
    expect(await screen.findByTestId("quick-icons")).toBeInTheDocument();
    expect(screen.queryByTestId("game-frame")).not.toBeInTheDocument();

    act(() => {
      store.dispatch(openGame({ url: "https://games.example/play?g=1", title: "Sweet Bonanza", target: { kind: "ezugi" } }));
    });

    expect(await screen.findByTestId("game-frame")).toBeInTheDocument();
    expect(screen.getByTitle("Sweet Bonanza")).toBeInTheDocument();
  });
});
