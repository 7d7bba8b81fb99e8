import { memo } from "react";
import { useTranslation } from "react-i18next";

import type { Game } from "../../api/contracts.gen";

interface GameCardProps {
  game: Game;
  eager?: boolean;
  busy: boolean;
  onLaunch: (game: Game) => void;
}

/** One game: its card art (225x300, lazy), a NEW label for status 1, a click launches it.
 * Memoised, and given its launcher by the row or grid: a page holds dozens of cards, and
 * none of them re-renders when the session, balance or another card changes. */
export const GameCard = memo(function GameCard({ game, eager = false, busy, onLaunch }: GameCardProps) {
  const { t } = useTranslation("lobby");
  return (
    <li className="game-card">
      <button
        type="button"
        className="game-card__button"
        onClick={() => onLaunch(game)}
        aria-busy={busy}
        data-testid="game-card"
        data-game-id={game.gameId}
      >
        <img
          src={game.mediaPP ?? game.media}
          alt=""
          width={225}
          height={300}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
        />
        <span className="visually-hidden">{game.gameName}</span>
        {game.status === 1 && <span className="game-card__new">{t("games.new")}</span>}
        <span className="game-card__play" aria-hidden="true">
          {t("games.play")}
        </span>
      </button>
    </li>
  );
});
