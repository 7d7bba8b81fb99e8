import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// Tests run with the app's own i18next instance and resources (Spanish unless a test changes it),
// with every namespace the app loads on demand already in place.
import i18n from "../i18n";
import { forgetRefusals } from "../lib/links/links";

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

// jsdom has no matchMedia, which the carousels ask their breakpoints with (useCardsInView.ts):
// this one answers `(max-width: Npx)` by jsdom's window width, as a browser would, and matches
// nothing else (as jsdom's missing one left BannerCarousel's reduced-motion check false).
if (typeof window.matchMedia !== "function") {
  window.matchMedia = (media: string) => {
    const maxWidth = /^\(max-width: (\d+)px\)$/.exec(media)?.[1];
    return {
      media,
      get matches() {
        return maxWidth !== undefined && window.innerWidth <= Number(maxWidth);
      },
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    } satisfies MediaQueryList;
  };
}

// Lazy screens and their chunks take longer on a loaded CI machine than the default 1 s allows.
configure({ asyncUtilTimeout: 5000 });

// Test files share one module graph (`isolate: false`, vite.config.ts): what the app keeps at
// module level is put back as a fresh page has it after every test.
afterEach(async () => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  forgetRefusals();
  if (i18n.language !== "es") await i18n.changeLanguage("es");
});
