import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// The console's own i18next instance and resources (Spanish unless a test changes it).
import i18n from "../i18n";
import FakeUplot from "./fakeUplot";

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

// Test files share one module graph (`isolate: false`, vite.console.config.ts): what is kept at
// module level (the charts made, the language) is put back after every test.
afterEach(async () => {
  cleanup();
  FakeUplot.made = [];
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(";")) {
    const name = cookie.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/admin`;
  }
  await i18n.changeLanguage("es");
});
