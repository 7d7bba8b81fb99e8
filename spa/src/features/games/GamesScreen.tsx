import { useEffect, useEffectEvent, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { pathOf } from "../../api/routes";
import type { ShellKey } from "../../components/menu";
import { useGetConfigQuery } from "../../lib/config/configApi";
import { useGetGamesQuery } from "../../lib/content/contentApi";
import { CategoryGames } from "./CategoryGames";
import { GameGrid } from "./GameGrid";
import { GameRow } from "./GameRow";
import { LIVE_TABLES, type LaunchTarget } from "./launch";
import { useLaunchGame } from "./useLaunchGame";
import { CHOSEN_PROVIDER_KEY, providerLabel } from "../../lib/providers/labels";
import { providerOn, type ProviderFlags } from "../../lib/providers/flags";
import { useShellFlags } from "../../lib/providers/useShellFlags";
import { useSession } from "../../lib/session/useSession";
import { useLocale } from "../../i18n/useLocale";
import { useAppDispatch } from "../../lib/store/hooks";
import { showNotice } from "../../lib/store/uiSlice";
import "../../styles/home.css";
import "../../styles/live.css";

const TITLES: Record<string, ShellKey> = {
  slots: "menu.slots",
  livedealer: "menu.liveCasino",
  sports: "menu.sports",
  horseracing: "menu.horses",
  Blackjack: "menu.blackjackHeat",
  flywin: "screens.flywin",
};

interface GamesScreenProps {
  category: string;
  /** The sports category's events list (the sports feature's: the route wires it in). */
  sportsEvents: ReactNode;
}

/** One games category: slots, live dealer, sports, horse racing, Blackjack Heat, crash games. */
export function GamesScreen({ category, sportsEvents }: GamesScreenProps) {
  const { t } = useTranslation("shell");
  const flags = useShellFlags();
  return (
    <section className="screen">
      <h1 className="screen__title">{t(TITLES[category] ?? "screens.games")}</h1>
      <CategoryBody category={category} flags={flags} sportsEvents={sportsEvents} />
    </section>
  );
}

function CategoryBody({ category, flags, sportsEvents }: GamesScreenProps & { flags: ProviderFlags }) {
  switch (category) {
    case "livedealer":
      return <LiveDealer flags={flags} />;
    case "sports":
      return flags.sports ? <Sports events={sportsEvents} /> : <Unavailable />;
    case "horseracing":
      return flags.horses ? <HorseRacing /> : <Unavailable />;
    case "Blackjack":
      return <CategoryGames category="Events" />;
    case "flywin":
      return <CategoryGames category="crashGames" />;
    default:
      return <Slots flags={flags} />;
  }
}

function Unavailable() {
  const { t } = useTranslation("games");
  return <p className="screen__soon">{t("screens.unavailable")}</p>;
}

/** The slot providers whose lists make up "All"; a provider chosen on home (stored under proveN)
 * filters the screen to its own list, whichever studio it is. */
const SLOT_PROVIDERS = ["rubyplay", "mancala", "pragmaticplay"] as const;

function Slots({ flags }: { flags: ProviderFlags }) {
  const { t } = useTranslation("games");
  const locale = useLocale();
  const providers: string[] = SLOT_PROVIDERS.filter((name) => providerOn(flags, name));
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(CHOSEN_PROVIDER_KEY));
  const shown = chosen && providerOn(flags, chosen) ? chosen : null;
  const other = shown !== null && !providers.includes(shown) ? shown : null;
  const lists = [
    useGetGamesQuery({ locale, provider: "rubyplay" }, { skip: !providers.includes("rubyplay") }),
    useGetGamesQuery({ locale, provider: "mancala" }, { skip: !providers.includes("mancala") }),
    useGetGamesQuery({ locale, provider: "pragmaticplay" }, { skip: !providers.includes("pragmaticplay") }),
  ];
  const otherList = useGetGamesQuery({ locale, provider: other ?? "" }, { skip: other === null });
  const loading = other ? otherList.isLoading : lists.some((list) => list.isLoading);
  const games = other
    ? (otherList.data ?? [])
    : lists.flatMap((list) => list.data ?? []).filter((game) => shown === null || game.provider === shown);
  const chips = other ? [...providers, other] : providers;

  function choose(name: string | null) {
    if (name) localStorage.setItem(CHOSEN_PROVIDER_KEY, name);
    else localStorage.removeItem(CHOSEN_PROVIDER_KEY);
    setChosen(name);
  }

  return (
    <>
      <div className="tabs" role="group" aria-label={t("slots.providers")}>
        <button type="button" className="provider-chip" aria-pressed={shown === null} onClick={() => choose(null)}>
          {t("slots.all")}
        </button>
        {chips.map((name) => (
          <button key={name} type="button" className="provider-chip" aria-pressed={shown === name} onClick={() => choose(name)} data-testid={`slots-provider-${name}`}>
            {providerLabel(name)}
          </button>
        ))}
      </div>
      {(shown === null || shown === "pragmaticplay") && (
        <GameRow provider="pragmaticplay" category="newpragmatic" title={t("slots.newPragmatic")} />
      )}
      {!loading && other && games.length === 0 ? (
        <p className="screen__soon" data-testid="slots-none">
          {t("slots.none", { provider: providerLabel(other) })}
        </p>
      ) : (
        <GameGrid games={games} loading={loading} />
      )}
    </>
  );
}

interface TileProps {
  title: string;
  text: string;
  testId: string;
  onPlay: () => void;
}

function Tile({ title, text, testId, onPlay }: TileProps) {
  const { t } = useTranslation("games");
  return (
    <li>
      <button type="button" className="tile" onClick={onPlay} data-testid={testId}>
        <span className="tile__title">{title}</span>
        <span className="tile__text">{text}</span>
        <span className="tile__cta" aria-hidden="true">
          {t("tiles.play")}
        </span>
      </button>
    </li>
  );
}

/** The two live-casino providers' image tiles, CMS uploads like every image. */
const LIVE_TILE_IMAGES = { evolution: pathOf("media", { file: "live-evolution.svg" }), ezugi: pathOf("media", { file: "live-ezugi.svg" }) } as const;

function ImageTile({ provider, name, text, onPlay }: { provider: keyof typeof LIVE_TILE_IMAGES; name: string; text: string; onPlay: () => void }) {
  return (
    <li>
      <button type="button" className="live-tile" onClick={onPlay} data-testid={`tile-${provider}`}>
        <img src={LIVE_TILE_IMAGES[provider]} alt={name} width={480} height={300} />
        <span className="live-tile__text">{text}</span>
      </button>
    </li>
  );
}

/** The pragmaticplaylivecasino switch shows (or hides) the Blackjack League and its road to the cup. */
function RoadToTheCup() {
  const { t } = useTranslation("games");
  return (
    <Link to="/blackjackleague" className="road-to-cup" data-testid="road-to-the-cup">
      <span className="road-to-cup__title">{t("roadToCup.title")}</span>
      <span>{t("roadToCup.text")}</span>
    </Link>
  );
}

/** Evolution and Ezugi image tiles, the vivo tables when the live casino is on, the road to the cup. */
function LiveDealer({ flags }: { flags: ProviderFlags }) {
  const { t } = useTranslation("games");
  const dispatch = useAppDispatch();
  const { loggedIn } = useSession();
  const { launch } = useLaunchGame();
  const play = (target: LaunchTarget, title: string) => () => void launch(target, title);

  function evolution() {
    // The evolution tile while logged out shows a Please Login popup with OK.
    if (!loggedIn) {
      dispatch(showNotice({ kind: "message", text: t("tiles.pleaseLogin"), variant: "info" }));
      return;
    }
    void launch({ kind: "game", game: { provider: "evolution", gameId: "lobby", Id: "lobby", gameName: "Evolution" } }, "Evolution");
  }

  return (
    <>
      <ul className="live-tiles">
        {providerOn(flags, "evolution") && <ImageTile provider="evolution" name="Evolution" text={t("tiles.evolution")} onPlay={evolution} />}
        {providerOn(flags, "ezugi") && <ImageTile provider="ezugi" name="Ezugi" text={t("tiles.ezugi")} onPlay={play({ kind: "ezugi" }, "Ezugi")} />}
      </ul>
      {flags.liveCasino && (
        <ul className="tiles">
          <Tile title={t("tiles.blackjack")} text={t("tiles.table", { table: LIVE_TABLES.blackjack })} testId="tile-blackjack" onPlay={play({ kind: "liveTable", table: LIVE_TABLES.blackjack }, t("tiles.blackjack"))} />
          <Tile title={t("tiles.roulette")} text={t("tiles.table", { table: LIVE_TABLES.roulette })} testId="tile-roulette" onPlay={play({ kind: "liveTable", table: LIVE_TABLES.roulette }, t("tiles.roulette"))} />
        </ul>
      )}
      {flags.blackjackLeague && <RoadToTheCup />}
    </>
  );
}

/** The sportsbook: framed for a player (with a fresh BTi token), the events list for everyone. */
function Sports({ events }: { events: ReactNode }) {
  const { t } = useTranslation("shell");
  const { loggedIn } = useSession();
  const sportsbook = useGetConfigQuery().data?.skin.sportsbookUrl;
  const { launch } = useLaunchGame();
  const title = t("menu.sports");
  // Once per visit of the screen (each launch mints a new token), not on every render.
  const launchSportsbook = useEffectEvent(() => void launch({ kind: "sportsbook" }, title));
  useEffect(() => {
    if (loggedIn && sportsbook) launchSportsbook();
  }, [loggedIn, sportsbook, title]);
  return events;
}

function HorseRacing() {
  const { t } = useTranslation("games");
  const { launch } = useLaunchGame();
  const title = t("tiles.horses");
  return (
    <ul className="tiles">
      <Tile
        title={title}
        text={t("tiles.horsesText")}
        testId="tile-horses"
        onPlay={() => void launch({ kind: "game", game: { provider: "caballo", gameId: "lobby", Id: "lobby", gameName: title } }, title)}
      />
    </ul>
  );
}
