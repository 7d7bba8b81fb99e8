import type { ProviderSwitches } from "../providers/flags";

/** Studio names as the studios write them (brand names: the same in every language). */
export const PROVIDER_LABELS: Readonly<Record<string, string>> = {
  vivogaming: "Vivo Gaming",
  pragmaticplay: "Pragmatic Play",
  mancala: "Mancala Gaming",
  pragmaticplaylivecasino: "Pragmatic Play Live",
  evenbetpoker: "EvenBet Poker",
  rubyplay: "Ruby Play",
  ezugi: "Ezugi",
  evolution: "Evolution",
  habanero: "Habanero",
  endorphina: "Endorphina",
  vibra: "Vibra Gaming",
};

/** The sportsbook and horse racing are not casino studios: the home provider list leaves them out. */
const NOT_ON_HOME = new Set(["bti", "caballo"]);
/** Provider chips shown on home before See All (section 9). */
export const HOME_CHIPS = 9;
/** The storage key of the provider chosen on home, which the slots screen filters by. */
export const CHOSEN_PROVIDER_KEY = "proveN";

export function providerLabel(name: string): string {
  return PROVIDER_LABELS[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
}

/** The enabled casino providers in the platform's order. */
export function homeProviders(switches: ProviderSwitches): string[] {
  return [...switches].filter(([name, on]) => on && !NOT_ON_HOME.has(name)).map(([name]) => name);
}
