import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// Tests run with the app's own i18next instance and resources (Spanish unless a test changes it),
// with every namespace the app loads on demand already in place.
import i18n from "../i18n";

const locales = import.meta.glob<{ default: Record<string, unknown> }>("../locales/*/*.json", { eager: true });
for (const [path, module] of Object.entries(locales)) {
  const [, lng, ns] = /locales\/(\w+)\/(\w+)\.json$/.exec(path) ?? [];
  if (lng && ns && !i18n.hasResourceBundle(lng, ns)) i18n.addResourceBundle(lng, ns, module.default);
}

// Node's Request has no document to resolve "/bff/config" against, unlike a browser's;
// fetchBaseQuery builds one from the relative URL before calling the (stubbed) fetch.
class DocumentRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === "string" ? new URL(input, document.baseURI) : input, init);
  }
}
globalThis.Request = DocumentRequest;

// Lazy screens and their chunks take longer on a loaded CI machine than the default 1 s allows.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
