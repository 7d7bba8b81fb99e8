import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";

import type { ShellKey } from "../../components/menu";
import { useGetConfigQuery } from "../../lib/config/configApi";
import { useGetEventBannersQuery, useGetReelDealsQuery } from "../../lib/content/contentApi";
import { eventAt, rememberEvent, storedEvent } from "../../lib/content/storedEvent";
import { CategoryGames } from "./CategoryGames";
import { GameGrid } from "./GameGrid";
import { useGetLeaderboardsQuery, useGetParticipantsQuery } from "./leaderboardApi";
import { ProviderGames } from "./ProviderGames";
import { PageLoader } from "../../components/PageLoader";
import { LUCKY_STREAK_CHECK_MS, SCREEN_CHECK_MS, useTimedCheck, type Verdict } from "../../lib/useTimedCheck";
import { EventBanner } from "./EventBanner";
import type { ProviderFlags } from "../../lib/providers/flags";
import { useShellFlags } from "../../lib/providers/useShellFlags";
import { useSession } from "../../lib/session/useSession";
import { useLocale } from "../../i18n/useLocale";
import { formatCount, formatMoney } from "../../utils/money";
import "../../styles/home.css";

/** A content screen: its title is a shell text, or a name from the CMS (`heading`) once known. */
function Screen({ title, heading, children }: { title: ShellKey; heading?: string | null; children: ReactNode }) {
  const { t } = useTranslation("shell");
  return (
    <section className="screen">
      <h1 className="screen__title" data-testid="screen-title">
        {heading || t(title)}
      </h1>
      {children}
    </section>
  );
}

/** A screen its provider switched off: home, once the provider list has answered. */
function Gate({ on, children }: { on: (flags: ProviderFlags) => boolean; children: ReactNode }) {
  const flags = useShellFlags();
  if (flags.loaded && !on(flags)) return <Navigate to="/home" replace />;
  return <>{children}</>;
}

export function DropWinScreen() {
  return (
    <Gate on={(flags) => flags.dropsAndWins}>
      <Screen title="menu.dropsAndWins">
        <EventBanner />
        <CategoryGames category="dropsAndWins" />
      </Screen>
    </Gate>
  );
}

/** The Events flag's check: visitors stay; a player waits for the player's provider list. */
function eventsVerdict(known: boolean, loggedIn: boolean, flags: ProviderFlags): Verdict {
  if (!known) return "unknown";
  if (!loggedIn) return "stay";
  if (!flags.loaded) return "unknown";
  return flags.poker ? "stay" : "leave"; // the Events flag is evenbetpoker's
}

/**
 * The blackjack holiday tournament: a logged-in player without the Events flag goes home after 1 s
 * (decided once the player's provider list has answered; the page loader until then).
 * Its title is the stored event's name (storage key `event`): the CMS event this screen shows is
 * stored when it arrives, so the name is there at once on the next visit.
 */
export function EventsScreen() {
  const { known, loggedIn } = useSession();
  const flags = useShellFlags();
  const show = useTimedCheck(SCREEN_CHECK_MS, eventsVerdict(known, loggedIn, flags));
  return show ? <EventsContent /> : <PageLoader />;
}

function EventsContent() {
  const locale = useLocale();
  const { pathname } = useLocation();
  const event = eventAt(useGetEventBannersQuery(locale).data, pathname);
  const [remembered] = useState(storedEvent);
  const stored = event ? { eventName: event.eventName, routerLink: event.routerLink, locale } : remembered;
  useEffect(() => {
    if (event) rememberEvent({ eventName: event.eventName, routerLink: event.routerLink, locale });
  }, [event, locale]);
  const name = stored && stored.locale === locale && stored.routerLink.toLowerCase() === pathname.toLowerCase() ? stored.eventName : null;
  return (
    <Screen title="screens.events" heading={name}>
      <EventBanner />
      <CategoryGames category="Events" />
    </Screen>
  );
}

/** Lucky streak / Holiday Rush: home after 1.3 s when the BlackjackLeague flag is off (decided
 * once the provider list has answered; the page loader until then). */
export function HolidayRushScreen() {
  const flags = useShellFlags();
  const show = useTimedCheck(LUCKY_STREAK_CHECK_MS, !flags.loaded ? "unknown" : flags.blackjackLeague ? "stay" : "leave");
  if (!show) return <PageLoader />;
  return (
    <Screen title="screens.holidayRush">
      <EventBanner />
      <CategoryGames category="Hoiliday" />
    </Screen>
  );
}

export function TakeMeFishinScreen() {
  return (
    <Screen title="screens.takeMeFishin">
      <EventBanner />
      <CategoryGames category="takeMeFishin" />
    </Screen>
  );
}

export function EvoGamesScreen() {
  return (
    <Screen title="screens.evoGames">
      <CategoryGames category="evogames" />
    </Screen>
  );
}

export function SpinWheelScreen() {
  const { t } = useTranslation("games");
  return (
    <Gate on={(flags) => flags.spinWheel}>
      <Screen title="screens.spinWheel">
        <p className="screen__soon">{t("spinWheel.text")}</p>
        <ProviderGames provider="mancala" />
      </Screen>
    </Gate>
  );
}

/** Winter escape reel deals: the prize-drop slots and the tournament list. */
export function ReelDealsScreen() {
  const { t } = useTranslation("games");
  const locale = useLocale();
  const { data, isLoading } = useGetReelDealsQuery(locale);
  const [tab, setTab] = useState<"prizeDrop" | "tournaments">("prizeDrop");
  return (
    <Gate on={(flags) => flags.dropsAndWins}>
      <Screen title="screens.reelDeals">
        <div className="tabs" role="tablist" aria-label={t("reels.label")}>
          <button type="button" role="tab" className="provider-chip" aria-selected={tab === "prizeDrop"} onClick={() => setTab("prizeDrop")}>
            {t("reels.prizeDrop")}
          </button>
          <button type="button" role="tab" className="provider-chip" aria-selected={tab === "tournaments"} onClick={() => setTab("tournaments")}>
            {t("reels.tournaments")}
          </button>
        </div>
        <div role="tabpanel">
          <GameGrid games={(tab === "prizeDrop" ? data?.prizeDrop : data?.Tornament) ?? []} loading={isLoading} />
        </div>
      </Screen>
    </Gate>
  );
}

/** Blackjack League: the leaderboard list, and the participants of the one chosen. */
export function BlackjackLeagueScreen() {
  const { t, i18n } = useTranslation("games");
  const { data, isLoading } = useGetLeaderboardsQuery();
  const boards = data?.leaderboards ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const board = boards.find((b) => b.id === chosen) ?? boards[0];
  const participants = useGetParticipantsQuery(board?.id ?? "", { skip: !board });
  const symbol = useGetConfigQuery().data?.skin.currencySymbol ?? "";
  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language, { day: "numeric", month: "short", year: "numeric" });
  return (
    <Gate on={(flags) => flags.blackjackLeague}>
      <Screen title="screens.blackjackLeague">
        {isLoading && <p className="screen__soon" role="status">{t("grid.loading")}</p>}
        {!isLoading && boards.length === 0 && <p className="screen__soon">{t("league.none")}</p>}
        {boards.length > 0 && (
          <div className="tabs" role="tablist" aria-label={t("league.boards")}>
            {boards.map((b) => (
              <button key={b.id} type="button" role="tab" className="provider-chip" aria-selected={b.id === board?.id} onClick={() => setChosen(b.id)}>
                {b.name}
              </button>
            ))}
          </div>
        )}
        {board && (
          <div role="tabpanel" data-testid="league-board">
            <p className="screen__soon">{t("league.dates", { from: date(board.startDate), to: date(board.endDate) })}</p>
            <table className="leaderboard">
              <thead>
                <tr>
                  <th scope="col">{t("league.rank")}</th>
                  <th scope="col">{t("league.player")}</th>
                  <th scope="col">{t("league.points")}</th>
                  <th scope="col">{t("league.prize")}</th>
                </tr>
              </thead>
              <tbody>
                {(participants.data?.participants ?? []).map((p) => (
                  <tr key={`${p.rank}-${p.nickname}`}>
                    <td>{p.rank}</td>
                    <td>{p.nickname}</td>
                    <td className="num">{formatCount(p.points)}</td>
                    <td className="num">{prizeText(p.prize, symbol)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Screen>
    </Gate>
  );
}

/** A prize as the platform words it; an amount ("Bs. 25,000", the platform's money text) in the site's money style. */
function prizeText(prize: string | null | undefined, symbol: string): string {
  if (!prize) return "—";
  const amount = /^\D*([\d,]+(?:\.\d+)?)$/.exec(prize.trim())?.[1];
  return amount ? formatMoney(Number(amount.replace(/,/g, "")), symbol) : prize;
}
