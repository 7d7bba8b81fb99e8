import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";

import i18n from "../i18n";

import { AfterFirstPaint } from "../components/AfterFirstPaint";
import { Header } from "../components/Header";
import { LEGAL_PATHS } from "../components/legalPaths";
import { NoticeHost } from "../components/NoticeHost";
import { PageLoader } from "../components/PageLoader";
import { urlAsks } from "../features/auth/urlAsks";
import { selectGameOpen } from "../features/games/gameOpen";
import { SideMenu } from "../components/SideMenu";
import { useScreenAccess } from "../lib/access/useScreenAccess";
import { useBalanceStream } from "../lib/player/useBalanceStream";
import { useGetConfigQuery } from "../lib/config/configApi";
import { useMaintenance } from "../lib/config/useMaintenance";
import { useSkinBranding } from "../lib/config/useSkinBranding";
import type { ProviderFlags } from "../lib/providers/flags";
import { useProviderFlags } from "../lib/providers/useProviderFlags";
import { useSession } from "../lib/session/useSession";
import { useAppSelector } from "../lib/store/hooks";
import { selectAuth } from "../lib/store/uiSlice";

// The footer mounts after the first paint (below the fold): its code comes then, not in the first chunk.
const Footer = lazy(async () => ({ default: (await import("../components/Footer")).Footer }));

// A maintenance is rare and its page is whole in itself: its code and style load only when one is on.
const MaintenancePage = lazy(async () => ({ default: (await import("../components/MaintenancePage")).MaintenancePage }));

// The login popup is code a visitor may never need: it loads when first opened, with its texts
// and the forms' (so it does not suspend once more for them).
const AuthPopup = lazy(async () => {
  const [popup] = await Promise.all([
    import("../features/auth/AuthPopup"),
    i18n.loadNamespaces(["auth", "forms"]).catch(() => undefined),
  ]);
  return popup;
});

// What opens over the screen (a game's frame) and what a link's query asks for (a referral,
// the registration popup) load when they are needed, not with every page: a game's frame once a
// game is launched, the link's effects when the address asks something. A phone's first visit
// loads only what draws the page, and its screen's data is not queued behind them.
const GameFrame = lazy(async () => ({
  default: (await import("../features/games/GameFrame")).GameFrame,
}));
// The reality check loads only for a player of a skin that has them.
const RealityCheck = lazy(() => import("../components/RealityCheck"));
const AuthUrlEffects = lazy(async () => ({
  default: (await import("../features/auth/AuthUrlEffects")).AuthUrlEffects,
}));

/** The main layout: header, the current screen, footer, and what opens over them. */
export function AppLayout() {
  useSkinBranding();
  const flags = useProviderFlags();
  const auth = useAppSelector(selectAuth);
  useSessionFlags(flags);
  useBalanceStream();
  const gameOpen = useAppSelector(selectGameOpen);
  const urlEffects = useUrlEffectsNeeded();
  const maintenance = useMaintenance();
  const { pathname } = useLocation();
  const realityChecks = useRealityChecks();

  if (maintenance && !LEGAL_PATHS.includes(pathname)) {
    return (
      <Suspense fallback={<PageLoader />}>
        <MaintenancePage maintenance={maintenance} />
      </Suspense>
    );
  }
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {/* Keyboard users jump over the menus. */}
        <SkipLabel />
      </a>
      <Header flags={flags} />
      <SideMenu flags={flags} />
      <main id="main" className="shell-main" tabIndex={-1}>
        {gameOpen && (
          <Suspense fallback={null}>
            <GameFrame />
          </Suspense>
        )}
        {/* A screen whose texts are still loading shows the page loader. */}
        <Suspense fallback={<PageLoader />}>
          <Outlet context={flags} />
        </Suspense>
      </main>
      <AfterFirstPaint>
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
      </AfterFirstPaint>
      <NoticeHost />
      {realityChecks && (
        <Suspense fallback={null}>
          <RealityCheck gameOpen={gameOpen} />
        </Suspense>
      )}
      {urlEffects && (
        <Suspense fallback={null}>
          <AuthUrlEffects />
        </Suspense>
      )}
      {auth.open && (
        <Suspense fallback={null}>
          <AuthPopup />
        </Suspense>
      )}
    </div>
  );
}

/** True from the first address that asks the site for something (a referral, a verification, a
 * session handed over, /register) on: the effects stay mounted after, as they take the asking keys
 * out of the address bar themselves and keep what they have handled. */
function useUrlEffectsNeeded(): boolean {
  const { pathname, search } = useLocation();
  const [needed, setNeeded] = useState(() => urlAsks(pathname, search));
  if (!needed && urlAsks(pathname, search)) setNeeded(true);
  return needed;
}

/** Whether this player's skin shows reality checks (`features.reality_check_minutes`). */
function useRealityChecks(): boolean {
  const { loggedIn } = useSession();
  const { data: config } = useGetConfigQuery();
  return loggedIn && Boolean(config?.skin.features.reality_check_minutes);
}

function SkipLabel() {
  const { t } = useTranslation("shell");
  return <>{t("menu.skipToContent")}</>;
}

/** The session-storage flags of the providers and the cash flows, written from the answers they
 * stand for (the screens' checks decide on those answers, never on a flag that may not be written
 * yet). */
function useSessionFlags(flags: ProviderFlags): void {
  const access = useScreenAccess();
  useEffect(() => {
    if (!flags.loaded) return;
    sessionStorage.setItem("Events", String(flags.poker));
    sessionStorage.setItem("poker", String(flags.poker));
    sessionStorage.setItem("BlackjackLeague", String(flags.blackjackLeague));
  }, [flags]);
  useEffect(() => {
    if (!access.known) return;
    sessionStorage.setItem("Dp", String(access.deposits));
    sessionStorage.setItem("widl", String(access.withdrawals));
  }, [access]);
}
