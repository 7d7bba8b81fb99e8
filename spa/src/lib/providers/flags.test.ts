import { describe, expect, it } from "vitest";

import { providerFlags, toSwitches } from "./flags";

describe("provider flags", () => {
  it("hides an area when its provider is off, as 0 or as false", () => {
    const visitor = providerFlags(toSwitches([{ name: "bti", status: 0 }, { name: "caballo", status: 1 }]), true);
    expect(visitor.sports).toBe(false);
    expect(visitor.horses).toBe(true);
    const player = providerFlags(toSwitches([{ name: "vivogaming", status: false }, { name: "mancala", status: true }]), true);
    expect(player.liveCasino).toBe(false);
    expect(player.spinWheel).toBe(true);
  });

  it("hides Drops & Wins and the Blackjack League also when their providers are absent", () => {
    const flags = providerFlags(toSwitches([{ name: "bti", status: 1 }]), true);
    expect(flags.dropsAndWins).toBe(false);
    expect(flags.blackjackLeague).toBe(false);
    expect(flags.sports).toBe(true);
    expect(flags.poker).toBe(true);
  });

  it("shows them when switched on", () => {
    const flags = providerFlags(
      toSwitches([{ name: "pragmaticplay", status: 1 }, { name: "pragmaticplaylivecasino", status: true }, { name: "evenbetpoker", status: 0 }]),
      true,
    );
    expect(flags.dropsAndWins).toBe(true);
    expect(flags.blackjackLeague).toBe(true);
    expect(flags.poker).toBe(false);
  });
});
