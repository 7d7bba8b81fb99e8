import type { ComponentType } from "react";
import { Navigate, type RouteObject } from "react-router";

import i18n from "../i18n";

import { PageLoader } from "../components/PageLoader";
import { RequireSession } from "../components/RequireSession";
import { AppLayout } from "./AppLayout";
import { HomeScreen } from "./routes/HomeScreen";
import { ExternalRedirect } from "./routes/ExternalRedirect";
import { NotFoundScreen } from "./routes/NotFoundScreen";
import { RouteErrorScreen } from "./routes/RouteErrorScreen";

type Loader = () => Promise<ComponentType>;

/**
 * A screen loaded on demand, with the translation namespaces it renders fetched at the same
 * time (otherwise the screen's first render would suspend on them: one more round trip before
 * its content is even asked for). `guarded` sends a logged-out visitor to /home.
 */
function screen(path: string, load: Loader, namespaces: readonly string[] = [], guarded = false): RouteObject {
  return {
    path,
    lazy: async () => {
      const [Screen] = await Promise.all([load(), i18n.loadNamespaces([...namespaces]).catch(() => undefined)]);
      return {
        Component: guarded
          ? () => (
              <RequireSession>
                <Screen />
              </RequireSession>
            )
          : Screen,
      };
    },
  };
}

// The lobby is where visitors land ("/" leads to it): its code comes with the entry rather than a
// round trip after it (its texts still load per language, with the skin and session requests).
const home: Loader = async () => HomeScreen;
const HOME = ["lobby", "games"];
const GAMES = ["games"];
const CASHIER = ["cashier"];
const CASHIER_FORMS = ["cashier", "forms"];
const HISTORY = ["history"];
const PAGES = ["pages"];
const CONTENT = ["games", "lobby"];

/** /slots, /sports, /horseracing and /livedealer. */
export const TOP_MENU_CATEGORIES = ["slots", "sports", "horseracing", "livedealer"] as const;

/** The paths whose first screen is the lobby (main.tsx asks for its banners at boot). */
export const LOBBY_PATHS: ReadonlySet<string> = new Set(["/", "/home", "/register"]);

/** The route table (site shell, section 2 "Full route table"); main.tsx and tests build routers from it. */
export const appRoutes: RouteObject[] = [
  {
    path: "/",
    Component: AppLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorScreen,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      screen("home", home, HOME),
      screen("games/:category?", async () => (await import("./routes/GamesScreen")).GamesScreen, GAMES),
      // The logged-out top menu's paths (section 2 "Menus"): the same screens as /games/<category>.
      ...TOP_MENU_CATEGORIES.map((category) => screen(category, async () => (await import("./routes/GamesScreen")).categoryScreen(category), GAMES)),
      screen("mybalance", async () => (await import("./routes/MyBalanceScreen")).MyBalanceScreen, ["account"], true),
      screen("profile", async () => (await import("./routes/ProfileScreen")).ProfileScreen, ["profile", "forms"], true),
      screen("deposit", async () => (await import("./routes/DepositScreen")).DepositScreen, CASHIER_FORMS, true),
      screen("deposit-success", async () => (await import("./routes/DepositResultScreens")).DepositSuccessScreen, CASHIER),
      screen("deposit-failed", async () => (await import("./routes/DepositResultScreens")).DepositFailedScreen, CASHIER),
      screen("deposit-pending", async () => (await import("./routes/DepositResultScreens")).DepositPendingScreen, CASHIER),
      screen("withdraw", async () => (await import("./routes/WithdrawScreen")).WithdrawScreen, CASHIER_FORMS, true),
      screen("transactionhistory", async () => (await import("./routes/HistoryScreens")).TransactionHistoryScreen, HISTORY, true),
      screen("casinogamehistory", async () => (await import("./routes/HistoryScreens")).GameHistoryScreen, HISTORY, true),
      screen("contactus", async () => (await import("./routes/ContactScreen")).ContactScreen, ["pages", "forms"]),
      // The registration popup opens over the home screen (features/auth/AuthUrlEffects).
      screen("register", home, HOME),
      screen("promotions", async () => (await import("./routes/PageScreens")).PromotionsScreen, PAGES),
      screen("privacypolicy", async () => (await import("./routes/PageScreens")).PrivacyScreen, PAGES),
      screen("termsandconditions", async () => (await import("./routes/PageScreens")).TermsScreen, PAGES),
      screen("taxation", async () => (await import("./routes/PageScreens")).CashoutPolicyScreen, PAGES),
      screen("resposiblegaming", async () => (await import("./routes/PageScreens")).ResponsibleGamingScreen, PAGES),
      screen("takeMeFishin", async () => (await import("./routes/ContentScreens")).TakeMeFishinScreen, CONTENT),
      screen("DropWin", async () => (await import("./routes/ContentScreens")).DropWinScreen, CONTENT),
      screen("Events", async () => (await import("./routes/ContentScreens")).EventsScreen, CONTENT),
      screen("Evenbetpoker", async () => (await import("./routes/PokerScreens")).EvenbetPokerScreen, CONTENT),
      screen("HolidayRush", async () => (await import("./routes/ContentScreens")).HolidayRushScreen, CONTENT),
      screen("poker", async () => (await import("./routes/PokerScreens")).PokerScreen, CONTENT),
      screen("evogames", async () => (await import("./routes/ContentScreens")).EvoGamesScreen, CONTENT),
      screen("ReelD", async () => (await import("./routes/ContentScreens")).ReelDealsScreen, CONTENT),
      screen("spinwheel", async () => (await import("./routes/ContentScreens")).SpinWheelScreen, CONTENT),
      screen("blackjackleague", async () => (await import("./routes/ContentScreens")).BlackjackLeagueScreen, CONTENT),
    ],
  },
  // The first entry of the route table: a launched game on the whole page, outside the layout.
  screen("opentab", async () => (await import("./routes/OpenTabScreen")).OpenTabScreen, GAMES, true),
  { path: "lobby/lobbyflash", element: <ExternalRedirect to="/lobby/lobbyflash.html" /> },
  { path: "lobby/tableflash", element: <ExternalRedirect to="/lobby/tableflash.html" /> },
  screen("depositresponse", async () => (await import("./routes/DepositResultScreens")).DepositResponseScreen, CASHIER),
  { path: "*", Component: NotFoundScreen },
];
