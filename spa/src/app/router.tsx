import type { ComponentType } from "react";
import { Navigate, type RouteObject } from "react-router";

import { PageLoader } from "../components/PageLoader";
import { RequireSession } from "../components/RequireSession";
import { AppLayout } from "./AppLayout";
import { ExternalRedirect } from "./routes/ExternalRedirect";
import { NotFoundScreen } from "./routes/NotFoundScreen";
import { RouteErrorScreen } from "./routes/RouteErrorScreen";

type Loader = () => Promise<ComponentType>;

/** A screen loaded on demand; `guarded` sends a logged-out visitor to /home. */
function screen(path: string, load: Loader, guarded = false): RouteObject {
  return {
    path,
    lazy: async () => {
      const Screen = await load();
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

const home: Loader = async () => (await import("./routes/HomeScreen")).HomeScreen;

/** The route table (site shell, section 2 "Full route table"); main.tsx and tests build routers from it. */
export const appRoutes: RouteObject[] = [
  {
    path: "/",
    Component: AppLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorScreen,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      screen("home", home),
      screen("games/:category?", async () => (await import("./routes/GamesScreen")).GamesScreen),
      screen("mybalance", async () => (await import("./routes/MyBalanceScreen")).MyBalanceScreen, true),
      screen("profile", async () => (await import("./routes/ProfileScreen")).ProfileScreen, true),
      screen("deposit", async () => (await import("./routes/DepositScreen")).DepositScreen, true),
      screen("deposit-success", async () => (await import("./routes/DepositResultScreens")).DepositSuccessScreen),
      screen("deposit-failed", async () => (await import("./routes/DepositResultScreens")).DepositFailedScreen),
      screen("deposit-pending", async () => (await import("./routes/DepositResultScreens")).DepositPendingScreen),
      screen("withdraw", async () => (await import("./routes/WithdrawScreen")).WithdrawScreen, true),
      screen("transactionhistory", async () => (await import("./routes/HistoryScreens")).TransactionHistoryScreen, true),
      screen("casinogamehistory", async () => (await import("./routes/HistoryScreens")).GameHistoryScreen, true),
      screen("contactus", async () => (await import("./routes/ContactScreen")).ContactScreen),
      // The registration popup opens over the home screen (features/auth/AuthUrlEffects).
      screen("register", home),
      screen("promotions", async () => (await import("./routes/PageScreens")).PromotionsScreen),
      screen("privacypolicy", async () => (await import("./routes/PageScreens")).PrivacyScreen),
      screen("termsandconditions", async () => (await import("./routes/PageScreens")).TermsScreen),
      screen("taxation", async () => (await import("./routes/PageScreens")).CashoutPolicyScreen),
      screen("resposiblegaming", async () => (await import("./routes/PageScreens")).ResponsibleGamingScreen),
      screen("takeMeFishin", async () => (await import("./routes/ContentScreens")).TakeMeFishinScreen),
      screen("DropWin", async () => (await import("./routes/ContentScreens")).DropWinScreen),
      screen("Events", async () => (await import("./routes/ContentScreens")).EventsScreen),
      screen("Evenbetpoker", async () => (await import("./routes/PokerScreens")).EvenbetPokerScreen),
      screen("HolidayRush", async () => (await import("./routes/ContentScreens")).HolidayRushScreen),
      screen("poker", async () => (await import("./routes/PokerScreens")).PokerScreen),
      screen("evogames", async () => (await import("./routes/ContentScreens")).EvoGamesScreen),
      screen("ReelD", async () => (await import("./routes/ContentScreens")).ReelDealsScreen),
      screen("spinwheel", async () => (await import("./routes/ContentScreens")).SpinWheelScreen),
      screen("blackjackleague", async () => (await import("./routes/ContentScreens")).BlackjackLeagueScreen),
    ],
  },
  // The first entry of the route table: a launched game on the whole page, outside the layout.
  screen("opentab", async () => (await import("./routes/OpenTabScreen")).OpenTabScreen, true),
  { path: "lobby/lobbyflash", element: <ExternalRedirect to="/lobby/lobbyflash.html" /> },
  { path: "lobby/tableflash", element: <ExternalRedirect to="/lobby/tableflash.html" /> },
  screen("depositresponse", async () => (await import("./routes/DepositResultScreens")).DepositResponseScreen),
  { path: "*", Component: NotFoundScreen },
];
