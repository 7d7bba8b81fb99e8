import type { ComponentType } from "react";
import { useParams } from "react-router";

import { GamesScreen } from "../../features/games/GamesScreen";
import { SportsEventsGrid } from "../../features/sports/SportsEventsGrid";

/** /games/:category; its sports category lists the sports feature's events. */
export function GamesCategoryRoute() {
  const { category = "slots" } = useParams();
  return <GamesScreen category={category} sportsEvents={<SportsEventsGrid />} />;
}

/** One category at a path of its own (/slots, /sports, /horseracing, /livedealer). */
export function categoryRoute(category: string): ComponentType {
  return function FixedCategoryRoute() {
    return <GamesScreen category={category} sportsEvents={<SportsEventsGrid />} />;
  };
}
