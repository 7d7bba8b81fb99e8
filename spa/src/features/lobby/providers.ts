import type { ProviderSwitches } from "../../lib/providers/flags";

/** The sportsbook and horse racing are not casino studios: the home provider list leaves them out. */
const NOT_ON_HOME = new Set(["bti", "caballo"]);
/** Provider chips shown on home before See All. */
export const HOME_CHIPS = 9;

/** The enabled casino providers in the platform's order. */
export function homeProviders(switches: ProviderSwitches): string[] {
  return [...switches].filter(([name, on]) => on && !NOT_ON_HOME.has(name)).map(([name]) => name);
}
