import { useLocale } from "../../i18n/useLocale";
import { useGetGamesQuery } from "../../lib/content/contentApi";
import { GameGrid } from "./GameGrid";

/** Every game of one provider's list, as a grid. */
export function ProviderGames({ provider }: { provider: string }) {
  const locale = useLocale();
  const { data = [], isLoading } = useGetGamesQuery({ locale, provider });
  return <GameGrid games={data} loading={isLoading} testId={`games-${provider}`} />;
}
