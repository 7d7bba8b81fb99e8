import { useDeferredValue } from "react";
import { useTranslation } from "react-i18next";

import type { Game } from "../../api/contracts.gen";
import { GameCard } from "./GameCard";
import { useGameLauncher } from "./useLaunchGame";

/** The cards a phone's first screen shows, and the ones whose art loads eagerly. */
const FIRST_CARDS = 6;

/** A screen's games as a responsive grid; the first row's art loads eagerly. */
export function GameGrid({ games, loading, testId = "game-grid" }: { games: readonly Game[]; loading: boolean; testId?: string }) {
  const { t } = useTranslation("games");
  if (loading) {
    return (
      <p className="screen__soon" role="status">
        {t("grid.loading")}
      </p>
    );
  }
  if (games.length === 0) return <p className="screen__soon">{t("grid.empty")}</p>;
  return <GameCards games={games} testId={testId} />;
}

/**
 * The cards: the first screen's at once, the rest (a provider lists a hundred games) in a
 * deferred render that React splits into short tasks, so a phone's main thread is never
 * blocked for the whole list.
 */
function GameCards({ games, testId }: { games: readonly Game[]; testId: string }) {
  const { launchGame, launching } = useGameLauncher();
  const shown = useDeferredValue(games, games.slice(0, FIRST_CARDS));
  return (
    <ul className="game-grid" data-testid={testId}>
      {shown.map((game, n) => (
        <GameCard key={`${game.provider ?? ""}:${game.gameId}`} game={game} eager={n < FIRST_CARDS} onLaunch={launchGame} busy={launching === game.gameName} />
      ))}
    </ul>
  );
}
