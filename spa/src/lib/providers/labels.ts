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

/** The storage key of the provider chosen on home, which the slots screen filters by. */
export const CHOSEN_PROVIDER_KEY = "proveN";

export function providerLabel(name: string): string {
  return PROVIDER_LABELS[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
}
