import { describe, expect, it } from "vitest";

import { depositBody, depositRules, depositState, presetsWithin } from "./depositForms";

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

  it("reads 'false' and 'Started' as pending, the approved status as done", () => {
    expect(depositState("false")).toBe("pending");
    expect(depositState("Started")).toBe("pending");
    expect(depositState("[PaymentOperationStatus: Approved]")).toBe("approved");
    expect(depositState("Locked")).toBe("other");
  });
});
