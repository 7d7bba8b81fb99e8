import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

// Tests run with the app's own i18next instance and resources (Spanish unless a test changes it).
import "../i18n";

// Node's Request has no document to resolve "/bff/config" against, unlike a browser's;
// fetchBaseQuery builds one from the relative URL before calling the (stubbed) fetch.
class DocumentRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === "string" ? new URL(input, document.baseURI) : input, init);
  }
}
globalThis.Request = DocumentRequest;

afterEach(() => {
  cleanup();
  localStorage.clear();
});
