import { describe, expect, it } from "vitest";

import { allows, flowOf, screenAccess } from "./screenAccess";

const ON = { deposits: true, withdrawals: true };

describe("screen access", () => {
  it("knows every screen of each flow", () => {
    expect(["/deposit", "/deposit-success", "/deposit-failed", "/deposit-pending", "/depositresponse?result=x", "/Deposit/"].map(flowOf)).toEqual(
      Array(6).fill("deposits"),
    );
    expect(flowOf("/withdraw#open")).toBe("withdrawals");
    expect(["/home", "/mybalance", "/depositx", "/"].map(flowOf)).toEqual([null, null, null, null]);
  });

  it("closes a flow the skin switches off, for visitors and players alike", () => {
    const access = screenAccess({ deposits: true, withdrawals: false }, { deposits: 1, withdrawal: 1 });
    expect(access).toEqual({ known: true, deposits: true, withdrawals: false });
    expect(allows(access, "/withdraw")).toBe(false);
    expect(allows(access, "/deposit")).toBe(true);
    expect(screenAccess({ deposits: false, withdrawals: true }, undefined).deposits).toBe(false);
  });

  it("closes a flow the profile's flag switches off (deposits = 0, withdrawal = 0)", () => {
    expect(screenAccess(ON, { deposits: 0, withdrawal: 1 })).toEqual({ known: true, deposits: false, withdrawals: true });
    expect(screenAccess(ON, { deposits: 1, withdrawal: 0 })).toEqual({ known: true, deposits: true, withdrawals: false });
  });

  it("shows no flow link until the skin and the player's profile have answered", () => {
    const waiting = screenAccess(ON, null);
    expect(waiting.known).toBe(false);
    expect(allows(waiting, "/deposit")).toBe(false);
    expect(allows(screenAccess(undefined, undefined), "/withdraw")).toBe(false);
    expect(allows(waiting, "/home")).toBe(true);
  });
});
