import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Provider } from "react-redux";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";

// First, so that the screens' own styles (the lobby's comes with the entry) cascade after them.
import "./styles/theme.css";
import "./styles/base.css";
import "./styles/shell.css";
import { blockF12 } from "./app/blockF12";
import { appRoutes, LOBBY_PATHS, preloadGuardedScreen } from "./app/router";
import { makeStore } from "./app/store";
import { configApi } from "./lib/config/configApi";
import { contentApi } from "./lib/content/contentApi";
import { sessionApi } from "./lib/session/sessionApi";
import i18n, { applySkinLanguage } from "./i18n";
import { chosenLanguage } from "./i18n/language";
import { localeOf } from "./i18n/useLocale";
import { nextTask } from "./utils/nextTask";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

blockF12(window);
const store = makeStore();
// Every screen needs the skin and the session: ask for both now rather than after the first
// screen's code has arrived (the layout's hooks then find them in flight or answered).
const config = store.dispatch(configApi.endpoints.getConfig.initiate(undefined, { subscribe: false }));
const session = store.dispatch(sessionApi.endpoints.getSession.initiate(undefined, { subscribe: false }));
// The skin decides the language when the visitor chose none (its default) or one it does not offer.
const language = config.unwrap().then(
  (answer) => applySkinLanguage(answer.skin),
  () => undefined, // no skin: the stored choice or Spanish; the layout shows what failed
);
// A player's screen behind the guard (/deposit, /profile, ...) starts loading with the session's
// answer (and its texts in the page's language: the skin's, for a first visit).
void Promise.all([session.unwrap(), chosenLanguage() === null ? language : undefined]).then(
  ([answer]) => answer.loggedIn && preloadGuardedScreen(window.location.pathname),
  () => undefined, // no session: the guard shows what failed
);
// The lobby's first view is its banners: when the lobby is the first screen, their lists are
// asked for now too (in the language the page will be in), not once its texts have arrived.
function prefetchLobbyBanners() {
  const locale = localeOf(i18n.language);
  void store.dispatch(contentApi.util.prefetch("getHomeBanners", locale, {}));
  void store.dispatch(contentApi.util.prefetch("getLobbyBanners", locale, {}));
}
if (LOBBY_PATHS.has(window.location.pathname)) {
  if (chosenLanguage() !== null) prefetchLobbyBanners();
  else void language.then(prefetchLobbyBanners);
}
// Evaluating the entry's modules is one long task already: the router (which starts loading the
// screen's code) and the first render each run in a task of their own, not at its end.
async function start(root: HTMLElement) {
  await nextTask();
  // A first visitor is greeted in the skin's language from the first render.
  if (chosenLanguage() === null) await language;
  const router = createBrowserRouter(appRoutes);
  await nextTask();
  // The first render is a transition, which React renders in slices of a few milliseconds with
  // the browser free in between, rather than in one task. It used to be one by chance: the router
  // waited for the first screen's lazy route and rendered the layout in its own transition. Since
  // a guarded screen's code loads behind its guard (router.tsx), the layout of /deposit, /profile
  // and the others renders at once, and in one task it was 160-310 ms at 4x CPU, the longest of
  // their load (issue 40: their blocking time about doubled, from ab5c089).
  const app = createRoot(root);
  startTransition(() =>
    app.render(
      <StrictMode>
        <Provider store={store}>
          <RouterProvider router={router} />
        </Provider>
      </StrictMode>,
    ),
  );
}

void start(container);
