import { describe, expect, it } from "vitest";

import { depositBody, depositPresets, depositRefusal, depositRules, depositState, presetsWithin } from "./depositForms";

const ctx = { currency: "INR", login: "demo1", email: "d@example.com", phone: "", address: "" };

describe("deposit forms", () => {
  it("asks the UPI number only for 326 by UPI, and 328's amount follows its pay method", () => {
    expect(Object.keys(depositRules("326", "phone_pe", true))).toContain("upi_no");
    expect(Object.keys(depositRules("326", "phone_pe", false))).not.toContain("upi_no");
    expect(depositRules("328", "upi_s", false).amount?.maximum).toBe(70000);
    expect(depositRules("328", "upi_l", false).upi_no).toBeDefined();
  });

  it("builds the platform's payload, never with a session id", () => {
    const body = depositBody("328", "phone_pe", false, { amount: "500" }, ctx);
    expect(body).toMatchObject({ paymentMethod: 328, paymentType: "deposit", currency: "INR", amount: 500, payMethod: "phone_pe", userName: "demo1" });
    expect(body).not.toHaveProperty("wsession");
    expect(depositBody("332", "phone_pe", false, { amount: "10", bankCode: "prometeo", number: "V123456789", clientPhone: "0412555" }, { ...ctx, currency: "VES" })).toMatchObject({ currency: "VES", bankCode: "prometeo", number: "V123456789" });
    expect(depositBody("326", "phone_pe", false, { amount: "100", email: "A@B.CO" }, ctx)).toMatchObject({ email: "a@b.co", type: "CARD" });
  });

  it("offers only the presets within the limits", () => {
    expect(presetsWithin(5, 70000)).toEqual([]);
    expect(presetsWithin(100, 600000)).toEqual([250000, 500000]);
  });

  it("offers the spec's presets where three or more fit the method, else a round ladder within its limits", () => {
    expect(depositPresets(100, 600000)).toEqual([100, 500, 2000, 20000, 100000, 500000]);
    expect(depositPresets(100_000, 2_000_000)).toEqual([250000, 500000, 750000, 1000000, 1500000, 2000000]);
    expect(depositPresets(300, 50000)).toEqual([300, 500, 2000, 5000, 20000, 50000]);
    expect(depositPresets(5, 70000)).toEqual([5, 20, 200, 1000, 10000, 50000]);
    expect(depositPresets(1500, undefined)).toEqual([1500, 2000, 5000, 20000, 50000, 100000]);
    expect(depositPresets(300, 400)).toEqual([300]);
    for (const [low, high] of [[300, 50000], [100, 70000], [5, 70000], [100, 100000]] as const) {
      const offered = depositPresets(low, high);
      expect(offered.length).toBeGreaterThanOrEqual(5);
      expect(offered.every((n) => n >= low && n <= high)).toBe(true);
      expect([...offered].sort((a, b) => a - b)).toEqual(offered);
    }
  });

  it("tells the player to try again in 15 minutes when the perfect-money-style gateway refuses", () => {
    expect(depositRefusal("300", "Provider busy")).toBe("Please Try After 15 Minutes");
    expect(depositRefusal("328", "Provider busy")).toBe("Provider busy");
  });

  it("reads 'false' and 'Started' as pending, the approved status as done", () => {
    expect(depositState("false")).toBe("pending");
    expect(depositState("Started")).toBe("pending");
    expect(depositState("[PaymentOperationStatus: Approved]")).toBe("approved");
    expect(depositState("Locked")).toBe("other");
  });
});
