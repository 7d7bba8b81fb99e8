import { lazy, Suspense, type ComponentType } from "react";
import { Navigate, type RouteObject } from "react-router";

import i18n from "../i18n";

import { FlowGate } from "../components/FlowGate";
import { PageLoader } from "../components/PageLoader";
import { RequireSession } from "../components/RequireSession";
import { flowOf } from "../lib/access/screenAccess";
import { AppLayout } from "./AppLayout";
import { HomeScreen } from "./routes/HomeScreen";
import { ExternalRedirect } from "./routes/ExternalRedirect";
import { RouteErrorScreen } from "./routes/RouteErrorScreen";

type Loader = () => Promise<ComponentType>;

/**
 * A screen's code with the translation namespaces it renders fetched at the same time
 * (otherwise its first render would suspend on them: one more round trip before its content is
 * even asked for); a screen of the deposit or withdrawal flow goes home when its flow is off
 * (lib/access).
 */
async function loadScreen(path: string, load: Loader, namespaces: readonly string[]): Promise<ComponentType> {
  const flow = flowOf(`/${path}`);
  const [Loaded] = await Promise.all([load(), i18n.loadNamespaces([...namespaces]).catch(() => undefined)]);
  if (!flow) return Loaded;
  return () => (
    <FlowGate flow={flow}>
      <Loaded />
    </FlowGate>
  );
}

/** A screen loaded on demand, when the router matches its path. */
function screen(path: string, load: Loader, namespaces: readonly string[] = []): RouteObject {
  return { path, lazy: async () => ({ Component: await loadScreen(path, load, namespaces) }) };
}

/** Each guarded screen's loader by its path ("/deposit"), for `preloadGuardedScreen`. */
const guardedLoaders = new Map<string, () => Promise<unknown>>();

/**
 * Starts loading the guarded screen at `pathname`, if it is one; main.tsx calls it once the
 * session says a player is signed in, so the screen's code and texts are on their way while the
 * layout renders, not once the render reaches the guard (on /deposit that render is a few hundred
 * milliseconds at 4x CPU, and the screen's data waits for its code). A visitor's load is as before.
 */
export function preloadGuardedScreen(pathname: string): void {
  void guardedLoaders.get(pathname)?.().catch(() => undefined); // a failure shows when the screen renders
}

/**
 * A screen for players only: a logged-out visitor is sent to /home before its code or its texts
 * are asked for (a route's `lazy` would load them on the match, before the guard renders).
 */
function guardedScreen(path: string, load: Loader, namespaces: readonly string[] = []): RouteObject {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const loadOnce = () => (loading ??= loadScreen(path, load, namespaces).then((Screen) => ({ default: Screen })));
  guardedLoaders.set(`/${path}`, loadOnce);
  const Loaded = lazy(loadOnce);
  return {
    path,
    Component: () => (
      <RequireSession>
        <Suspense fallback={<PageLoader />}>
          <Loaded />
        </Suspense>
      </RequireSession>
    ),
  };
}

// The lobby is where visitors land ("/" leads to it): its code comes with the entry rather than a
// round trip after it (its texts still load per language, with the skin and session requests).
const home: Loader = () => Promise.resolve(HomeScreen);
const HOME = ["lobby", "games"];
const GAMES = ["games"];
const CASHIER = ["cashier"];
const CASHIER_FORMS = ["cashier", "forms"];
const HISTORY = ["history"];
const PAGES = ["pages"];
const CONTENT = ["games", "lobby"];

/** /slots, /sports, /horseracing and /livedealer. */
export const TOP_MENU_CATEGORIES = [
  "slots",
  "sports",
  "horseracing",
  "livedealer",
] as const;

/** The paths whose first screen is the lobby (main.tsx asks for its banners at boot). */
export const LOBBY_PATHS: ReadonlySet<string> = new Set([
  "/",
  "/home",
  "/register",
]);

/** The site's full route table; main.tsx and tests build routers from it. */
export const appRoutes: RouteObject[] = [
  {
    path: "/",
    Component: AppLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorScreen,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      screen("home", home, HOME),
      screen(
        "games/:category?",
        async () => (await import("./routes/GamesRoutes")).GamesCategoryRoute,
        GAMES,
      ),
      // The logged-out top menu's paths: the same screens as /games/<category>.
      ...TOP_MENU_CATEGORIES.map((category) =>
        screen(
          category,
          async () =>
            (await import("./routes/GamesRoutes")).categoryRoute(category),
          GAMES,
        ),
      ),
      guardedScreen(
        "mybalance",
        async () =>
          (await import("../features/account/MyBalanceScreen")).MyBalanceScreen,
        ["account"],
      ),
      guardedScreen(
        "profile",
        async () =>
          (await import("../features/profile/ProfileScreen")).ProfileScreen,
        ["profile", "forms"],
      ),
      guardedScreen(
        "deposit",
        async () =>
          (await import("../features/cashier/DepositScreen")).DepositScreen,
        CASHIER_FORMS,
      ),
      screen(
        "deposit-success",
        async () =>
          (await import("../features/cashier/DepositResultScreens"))
            .DepositSuccessScreen,
        CASHIER,
      ),
      screen(
        "deposit-failed",
        async () =>
          (await import("../features/cashier/DepositResultScreens"))
            .DepositFailedScreen,
        CASHIER,
      ),
      screen(
        "deposit-pending",
        async () =>
          (await import("../features/cashier/DepositResultScreens"))
            .DepositPendingScreen,
        CASHIER,
      ),
      guardedScreen(
        "withdraw",
        async () =>
          (await import("../features/cashier/WithdrawScreen")).WithdrawScreen,
        CASHIER_FORMS,
      ),
      guardedScreen(
        "transactionhistory",
        async () =>
          (await import("../features/history/HistoryScreens"))
            .TransactionHistoryScreen,
        HISTORY,
      ),
      guardedScreen(
        "casinogamehistory",
        async () =>
          (await import("../features/history/HistoryScreens"))
            .GameHistoryScreen,
        HISTORY,
      ),
      screen(
        "contactus",
        async () =>
          (await import("../features/pages/ContactScreen")).ContactScreen,
        ["pages", "forms"],
      ),
      // The registration popup opens over the home screen (features/auth/AuthUrlEffects).
      screen("register", home, HOME),
      screen(
        "promotions",
        async () => (await import("./routes/PromotionsRoute")).PromotionsRoute,
        PAGES,
      ),
      screen(
        "privacypolicy",
        async () =>
          (await import("../features/pages/PageScreens")).PrivacyScreen,
        PAGES,
      ),
      screen(
        "termsandconditions",
        async () => (await import("../features/pages/PageScreens")).TermsScreen,
        PAGES,
      ),
      screen(
        "taxation",
        async () =>
          (await import("../features/pages/PageScreens")).CashoutPolicyScreen,
        PAGES,
      ),
      screen(
        "resposiblegaming",
        async () =>
          (await import("../features/pages/PageScreens"))
            .ResponsibleGamingScreen,
        PAGES,
      ),
      screen(
        "takeMeFishin",
        async () =>
          (await import("../features/games/ContentScreens")).TakeMeFishinScreen,
        CONTENT,
      ),
      screen(
        "DropWin",
        async () =>
          (await import("../features/games/ContentScreens")).DropWinScreen,
        CONTENT,
      ),
      screen(
        "Events",
        async () =>
          (await import("../features/games/ContentScreens")).EventsScreen,
        CONTENT,
      ),
      screen(
        "Evenbetpoker",
        async () =>
          (await import("../features/games/PokerScreens")).EvenbetPokerScreen,
        CONTENT,
      ),
      screen(
        "HolidayRush",
        async () =>
          (await import("../features/games/ContentScreens")).HolidayRushScreen,
        CONTENT,
      ),
      screen(
        "poker",
        async () =>
          (await import("../features/games/PokerScreens")).PokerScreen,
        CONTENT,
      ),
      screen(
        "evogames",
        async () =>
          (await import("../features/games/ContentScreens")).EvoGamesScreen,
        CONTENT,
      ),
      screen(
        "ReelD",
        async () =>
          (await import("../features/games/ContentScreens")).ReelDealsScreen,
        CONTENT,
      ),
      screen(
        "spinwheel",
        async () =>
          (await import("../features/games/ContentScreens")).SpinWheelScreen,
        CONTENT,
      ),
      screen(
        "blackjackleague",
        async () =>
          (await import("../features/games/ContentScreens"))
            .BlackjackLeagueScreen,
        CONTENT,
      ),
    ],
  },
  // The first entry of the route table: a launched game on the whole page, outside the layout.
  guardedScreen(
    "opentab",
    async () => (await import("../features/games/OpenTabScreen")).OpenTabScreen,
    GAMES,
  ),
  {
    path: "lobby/lobbyflash",
    element: <ExternalRedirect to="/lobby/lobbyflash.html" />,
  },
  {
    path: "lobby/tableflash",
    element: <ExternalRedirect to="/lobby/tableflash.html" />,
  },
  screen(
    "depositresponse",
    async () =>
      (await import("../features/cashier/DepositResultScreens"))
        .DepositResponseScreen,
    CASHIER,
  ),
  {
    path: "*",
    lazy: async () => ({
      Component: (await import("./routes/NotFoundScreen")).NotFoundScreen,
    }),
  },
];
