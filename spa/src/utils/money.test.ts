import { describe, expect, it } from "vitest";

import { formatCount, formatMoney, moneyInText } from "./money";

describe("formatMoney", () => {
  it.each([
    [5000, "Bs.", "Bs. 5.000,00"],
    [250.5, "Bs.", "Bs. 250,50"],
    [1234567.891, "$", "$ 1.234.567,89"],
    [0, "Bs.", "Bs. 0,00"],
    [null, "Bs.", "Bs. 0,00"],
    [undefined, "Bs.", "Bs. 0,00"],
    [-12.5, "Bs.", "Bs. -12,50"],
  ])("%s %s -> %s", (value, symbol, expected) => {
    expect(formatMoney(value, symbol)).toBe(expected);
  });
});

describe("formatCount", () => {
  it.each([
    [1000, "1.000"],
    [20000, "20.000"],
    [999, "999"],
    [1234567, "1.234.567"],
    [3799.6, "3.800"],
    [null, "0"],
  ])("%s -> %s, grouped like the money beside it", (value, expected) => {
    expect(formatCount(value)).toBe(expected);
  });
});

describe("moneyInText", () => {
  it("joins the symbol to the digits so a sentence never breaks between them", () => {
    expect(moneyInText(50000, "Bs.")).toBe("Bs.\u00a050.000,00");
    expect(moneyInText(5, "")).toBe("5,00");
  });
});
