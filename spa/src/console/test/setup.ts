import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// The console's own i18next instance and resources (Spanish unless a test changes it).
import i18n from "../i18n";

// jsdom has no canvas: the charts' uPlot is a stand-in that records what it was given.
vi.mock("uplot", () => import("./fakeUplot"));

// Node's Request has no document to resolve "/admin/api/..." against, unlike a browser's.
class DocumentRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === "string" ? new URL(input, document.baseURI) : input, init);
  }
}
globalThis.Request = DocumentRequest;

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

configure({ asyncUtilTimeout: 5000 });

afterEach(async () => {
  cleanup();
  localStorage.clear();
  for (const cookie of document.cookie.split(";")) {
    const name = cookie.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/admin`;
  }
  await i18n.changeLanguage("es");
});
