import { useTranslation } from "react-i18next";

import type { Game } from "../../api/contracts.gen";
import { GameCard } from "./GameCard";
import { useGameLauncher } from "./useLaunchGame";

/** A screen's games as a responsive grid; the first row's art loads eagerly. */
export function GameGrid({ games, loading, testId = "game-grid" }: { games: readonly Game[]; loading: boolean; testId?: string }) {
  const { t } = useTranslation("games");
  const { launchGame, launching } = useGameLauncher();
  if (loading) {
    return (
      <p className="screen__soon" role="status">
        {t("grid.loading")}
      </p>
    );
  }
  if (games.length === 0) return <p className="screen__soon">{t("grid.empty")}</p>;
  return (
    <ul className="game-grid" data-testid={testId}>
      {games.map((game, n) => (
        <GameCard key={`${game.provider ?? ""}:${game.gameId}`} game={game} eager={n < 6} onLaunch={launchGame} busy={launching === game.gameName} />
      ))}
    </ul>
  );
}
