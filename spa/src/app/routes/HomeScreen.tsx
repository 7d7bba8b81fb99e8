import { useTranslation } from "react-i18next";

import { AfterFirstPaint } from "../../components/AfterFirstPaint";
import { CarouselPlaceholder } from "../../components/Carousel";
import { useGetConfigQuery } from "../../lib/config/configApi";
import { GameRow } from "../../features/games/GameRow";
import { LIVE_TABLES } from "../../features/games/launch";
import { useLaunchGame } from "../../features/games/useLaunchGame";
import { HeroBanners } from "../../features/lobby/HeroBanners";
import { FooterBanners, LobbyBanners } from "../../features/lobby/PromoBanners";
import { ProviderChips } from "../../features/lobby/ProviderChips";
import { providerLabel } from "../../lib/providers/labels";
import { QuickIcons } from "../../features/lobby/QuickIcons";
import { useLobbyTop } from "../../features/lobby/useLobbyTop";
import { providerOn, type ProviderFlags } from "../../lib/providers/flags";
import { useShellFlags } from "../../lib/providers/useShellFlags";
import { SportsCarousel } from "../../features/sports/SportsCarousel";
import "../../styles/home.css";

/** The providers with a game row on home, in this order. */
export const HOME_ROWS = ["rubyplay", "mancala", "pragmaticplay"] as const;

/** The lobby, in this order: hero banners, quick icons, lobby banners, sports events,
 * game rows per provider, the provider picker, footer promo banners. Everything under the lobby
 * banners mounts once the banners above are on screen (useLobbyTop). */
export function HomeScreen() {
  const { t } = useTranslation();
  const { t: tl } = useTranslation("lobby");
  const { data, isError } = useGetConfigQuery();
  const flags = useShellFlags();
  const top = useLobbyTop();

  return (
    <div className="home">
      {isError ? (
        <p role="alert">{t("status.configUnavailable")}</p>
      ) : (
        <h1 className="visually-hidden">{data?.skin.name ?? t("status.loading")}</h1>
      )}
      <HeroBanners onShown={top.heroShown} />
      {/* The platform's home search exists but is disabled and hidden. */}
      <input type="search" className="home__search" disabled hidden aria-hidden="true" tabIndex={-1} />
      <LobbyQuickIcons flags={flags} />
      <LobbyBanners onShown={top.bannersShown} />
      {flags.sports && (
        <AfterFirstPaint waitFor={top.shown} fallback={<div className="carousel carousel--pending carousel--sports" aria-hidden="true" />}>
          <SportsCarousel />
        </AfterFirstPaint>
      )}
      {HOME_ROWS.filter((provider) => providerOn(flags, provider)).map((provider) => (
        <AfterFirstPaint key={provider} waitFor={top.shown} fallback={<CarouselPlaceholder />}>
          <GameRow provider={provider} title={tl("games.rowTitle", { provider: providerLabel(provider) })} />
        </AfterFirstPaint>
      ))}
      <AfterFirstPaint waitFor={top.shown}>
        <ProviderChips flags={flags} />
        <FooterBanners />
      </AfterFirstPaint>
    </div>
  );
}

/** The quick icons, whose Roulette opens the live table in the game frame. */
function LobbyQuickIcons({ flags }: { flags: ProviderFlags }) {
  const { launch } = useLaunchGame();
  const playRoulette = (title: string) => void launch({ kind: "liveTable", table: LIVE_TABLES.roulette }, title);
  return <QuickIcons flags={flags} onRoulette={playRoulette} />;
}
