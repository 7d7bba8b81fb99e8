import { useTranslation } from "react-i18next";

import type { Game } from "../../api/contracts.gen";
import { useLaunchGame } from "./useLaunchGame";

/** One game: its card art (225x300, lazy), a NEW label for status 1, a click launches it. */
export function GameCard({ game, eager = false }: { game: Game; eager?: boolean }) {
  const { t } = useTranslation("lobby");
  const { launch, launching } = useLaunchGame();
  const busy = launching === game.gameName;
  return (
    <li className="game-card">
      <button
        type="button"
        className="game-card__button"
        onClick={() => void launch({ kind: "game", game }, game.gameName)}
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
}
