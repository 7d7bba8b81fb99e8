import { useState } from "react";

import { useLocale } from "../../i18n/useLocale";
import { useGetGamesQuery } from "../../lib/content/contentApi";
import { Carousel, CarouselPlaceholder } from "../../components/Carousel";
import { GameCard } from "./GameCard";
import { rowGames } from "../../components/carousel";
import { useGameLauncher } from "./useLaunchGame";

/** A provider's row (or one of its categories', such as new pragmatic): eight games, the full list
 * once the right arrow is used. */
export function GameRow({ provider, category, title }: { provider: string; category?: string; title: string }) {
  const locale = useLocale();
  const { data: games = [], isLoading } = useGetGamesQuery({ locale, provider, category });
  const [expanded, setExpanded] = useState(false);
  const { launchGame, launching } = useGameLauncher();
  const shown = rowGames(games, expanded);
  if (isLoading) return <CarouselPlaceholder />;
  if (games.length === 0) return null;
  return (
    <Carousel
      title={title}
      count={shown.length}
      countAfterNext={games.length}
      onNext={() => setExpanded(true)}
      testId={`games-row-${category ?? provider}`}
    >
      {shown.map((game) => (
        <GameCard key={game.gameId} game={game} onLaunch={launchGame} busy={launching === game.gameName} />
      ))}
    </Carousel>
  );
}
