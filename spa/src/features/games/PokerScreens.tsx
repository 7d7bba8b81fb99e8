import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { Icon, type IconName } from "../../components/icons/Icon";
import { SESSION_EXPIRED } from "../../api/errors";
import { useAppDispatch } from "../../lib/store/hooks";
import { openAuth, showNotice } from "../../lib/store/uiSlice";
import { useGetConfigQuery } from "../../lib/config/configApi";
import type { PokerSystem } from "../../lib/config/types";
import { useGetPokerBannersQuery } from "../../lib/content/contentApi";
import { rememberLottery } from "./fullPage";
import { useLaunchUrl } from "./useLaunchGame";
import { SCREEN_CHECK_MS, useElapsed } from "../../lib/useTimedCheck";
import { useShellFlags } from "../../lib/providers/useShellFlags";
import { BannerCarousel, slide } from "../../components/BannerCarousel";
import { useSession } from "../../lib/session/useSession";
import { useLocale } from "../../i18n/useLocale";
import { formatMoney } from "../../utils/money";
import { localDateTime } from "../../utils/dates";
import { useGetPokerTournamentsQuery } from "./pokerApi";
import "../../styles/home.css";

const DOWNLOADS: readonly PokerSystem[] = ["android", "windows", "mac"];

/** The flash poker lobby's window: it "opens in an 800x600 window". */
export const FLASH_LOBBY = { url: "/lobby/lobbyflash.html", name: "lobbyflash", features: "width=800,height=600" } as const;

/** Poker: banners, PLAY NOW, the three downloads and the HTML5 card; all need a logged-in player. */
export function PokerScreen() {
  const { t } = useTranslation("games");
  const { t: ts } = useTranslation("shell");
  const locale = useLocale();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { loggedIn } = useSession();
  const downloads = useGetConfigQuery().data?.skin.pokerDownloads ?? {};
  const banners = useGetPokerBannersQuery(locale);
  const slides = (banners.data ?? []).map((b) => slide(b.id, b.pokerBanner, b.routerLink));

  /** A visitor gets the login popup instead of any poker action. */
  const gated = (action: () => void) => () => (loggedIn ? action() : dispatch(openAuth("login")));
  const html5 = gated(() => void navigate("/Evenbetpoker"));
  const flashLobby = gated(() => void window.open(FLASH_LOBBY.url, FLASH_LOBBY.name, FLASH_LOBBY.features));

  return (
    <section className="screen">
      <h1 className="visually-hidden">{ts("menu.poker")}</h1>
      <BannerCarousel banners={slides} loading={banners.isLoading} label={t("poker.banners")} testId="poker-banners" />
      <button type="button" className="button button--primary poker__play" onClick={html5} data-testid="poker-play-now">
        {t("poker.playNow")}
      </button>
      <h2>{t("poker.online")}</h2>
      <ul className="tiles">
        {DOWNLOADS.map((system) => (
          <PokerTile
            key={system}
            testId={`poker-download-${system}`}
            icon="download"
            title={t(`poker.download.${system}`)}
            text={t("poker.downloadText")}
            onClick={gated(() => {
              const url = downloads[system];
              if (url) window.open(url, "_blank", "noopener");
              else dispatch(showNotice({ kind: "notification", text: t("poker.noDownload"), variant: "info" }));
            })}
          />
        ))}
        <PokerTile testId="poker-html5" icon="play" title={t("poker.html5")} text={t("poker.html5Text")} onClick={html5} />
        <PokerTile testId="poker-flash-lobby" icon="grid" title={t("poker.flashLobby")} text={t("poker.flashLobbyText")} onClick={flashLobby} />
      </ul>
      {loggedIn && <PokerTournaments />}
    </section>
  );
}

/** One of the poker page's ways in: an icon, a title and a line, as a button. */
function PokerTile({ testId, icon, title, text, onClick }: { testId: string; icon: IconName; title: string; text: string; onClick: () => void }) {
  return (
    <li>
      <button type="button" className="tile" onClick={onClick} data-testid={testId}>
        <Icon name={icon} size={28} />
        <span className="tile__title">{title}</span>
        <span className="tile__text">{text}</span>
      </button>
    </li>
  );
}

/** The poker room's tournaments (getPokerTournamentsList): a player's call, so a player's list. */
function PokerTournaments() {
  const { t } = useTranslation("games");
  const locale = useLocale();
  const symbol = useGetConfigQuery().data?.skin.currencySymbol ?? "";
  const { data } = useGetPokerTournamentsQuery();
  const tournaments = data?.tournamentList ?? [];
  if (tournaments.length === 0) return null;
  return (
    <section className="poker-tournaments" aria-labelledby="poker-tournaments" data-testid="poker-tournaments">
      <h2 id="poker-tournaments">{t("poker.tournaments")}</h2>
      <ul className="poker-tournaments__list">
        {tournaments.map((tournament) => (
          <li key={tournament.id} className="poker-tournaments__item panel">
            <span className="poker-tournaments__name">{tournament.name}</span>
            <time dateTime={tournament.startDate}>{localDateTime(tournament.startDate, locale)}</time>
            <span>{t("poker.buyIn", { amount: formatMoney(tournament.buyIn, symbol) })}</span>
            <span>{t("poker.prizePool", { amount: formatMoney(tournament.prizePool, symbol) })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * /Evenbetpoker, the sports-game screen: after 1 s a visitor gets the login popup; a player
 * with the poker flag gets the evenBet game full page (its lang set to the site's), else home.
 * The flag is decided on the player's provider list, however late it answers.
 */
export function EvenbetPokerScreen() {
  const { t } = useTranslation("games");
  const { known, loggedIn } = useSession();
  const skin = useGetConfigQuery().data?.skin;
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const resolve = useLaunchUrl();
  const [url, setUrl] = useState<string | null>(null);
  const flags = useShellFlags();
  const due = useElapsed(SCREEN_CHECK_MS);
  const step = !due || !known ? null : !loggedIn ? "login" : !flags.loaded ? null : flags.poker ? "launch" : "leave";

  useEffect(() => {
    if (step === "login") dispatch(openAuth("login"));
    if (step === "leave") void navigate("/home", { replace: true });
    if (step !== "launch") return;
    let live = true;
    void resolve({ kind: "sportsGame" }).then((outcome) => {
      if (!live) return;
      if (outcome.url !== null) setUrl(outcome.url);
      else if (outcome.code !== SESSION_EXPIRED) dispatch(showNotice({ kind: "message", text: outcome.message, variant: "error" }));
    });
    return () => {
      live = false;
    };
  }, [step, dispatch, navigate, resolve]);

  return (
    <section className="full-game" aria-label={t("poker.html5")}>
      {url && (
        <div className="game-frame__bar">
          <span className="game-frame__title">{t("poker.html5")}</span>
          <button
            type="button"
            className="icon-button"
            onClick={() => {
              rememberLottery();
              window.open("/opentab", "_blank");
            }}
            aria-label={t("fullPage.openLottery")}
            data-testid="lottery-fullpage"
          >
            <Icon name="grid" />
          </button>
        </div>
      )}
      {url ? (
        <iframe src={url} title={t("poker.html5")} allow="autoplay; fullscreen" allowFullScreen data-testid="sports-game-frame" />
      ) : (
        <div className="full-game__logo" role="status" aria-label={t("grid.loading")}>
          {skin && <img src={skin.branding.logo} alt="" width={165} height={36} />}
        </div>
      )}
    </section>
  );
}
