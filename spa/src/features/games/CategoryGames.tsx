import { useLocale } from "../../i18n/useLocale";
import { useGetGamesQuery } from "../../lib/content/contentApi";
import { GameGrid } from "./GameGrid";

/** The games of one CMS category (dropsAndWins, Events, Hoiliday, takeMeFishin, evogames, crashGames). */
export function CategoryGames({ category }: { category: string }) {
  const locale = useLocale();
  const { data = [], isLoading } = useGetGamesQuery({ locale, category });
  return <GameGrid games={data} loading={isLoading} testId={`games-${category}`} />;
}
