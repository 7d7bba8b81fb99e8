/** A provider's switch: true/1 on, false/0 off, undefined when the list does not name it. */
export type ProviderSwitches = ReadonlyMap<string, boolean>;

/** What each provider switch shows or hides. */
export interface ProviderFlags {
  /** false until a provider list has answered. */
  loaded: boolean;
  sports: boolean; // bti
  horses: boolean; // caballo
  liveCasino: boolean; // vivogaming: live casino, Roulette and Table Games
  dropsAndWins: boolean; // pragmaticplay (hidden when absent too): Drops & Wins and Reel Deals
  spinWheel: boolean; // mancala: Spin the Wheel and the Jackpot icon
  blackjackLeague: boolean; // pragmaticplaylivecasino (hidden when absent too): league + road to the cup
  poker: boolean; // evenbetpoker: the events/poker flag
  /** Each listed provider's switch, for the provider chips, game rows and launch tiles. */
  switches: ProviderSwitches;
}

/** Whether `provider`'s games may show: only an explicit off (false/0) hides them. */
export function providerOn(flags: Pick<ProviderFlags, "switches">, provider: string | null | undefined): boolean {
  return flags.switches.get((provider ?? "").toLowerCase()) !== false;
}

export function toSwitches(list: readonly { name: string; status: boolean | number }[] | undefined): ProviderSwitches {
  return new Map((list ?? []).map((entry) => [entry.name.toLowerCase(), entry.status === true || entry.status === 1]));
}

export function providerFlags(switches: ProviderSwitches, loaded: boolean): ProviderFlags {
  // Unless the spec says "also hidden when absent", only an explicit off hides an area.
  const notOff = (name: string) => switches.get(name) !== false;
  const on = (name: string) => switches.get(name) === true;
  return {
    loaded,
    sports: notOff("bti"),
    horses: notOff("caballo"),
    liveCasino: notOff("vivogaming"),
    dropsAndWins: on("pragmaticplay"),
    spinWheel: notOff("mancala"),
    blackjackLeague: on("pragmaticplaylivecasino"),
    poker: notOff("evenbetpoker"),
    switches,
  };
}
