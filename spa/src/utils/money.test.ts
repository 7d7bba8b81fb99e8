import { describe, expect, it, vi } from "vitest";

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

describe("the digits", () => {
  const samples = [0, 1e-7, 0.004, 0.005, 1.005, 2.675, 7, 999.995, 1000, 12345.678, 1e6, 987654321.125, -0.5, -1234.565, -1e9];

  it.each(samples)("%s reads as Intl's Argentine digits would write it", (value) => {
    const money = new Intl.NumberFormat("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "always" });
    const count = new Intl.NumberFormat("es-AR", { maximumFractionDigits: 0, useGrouping: "always" });
    expect(formatMoney(value, "")).toBe(money.format(value));
    expect(formatCount(value)).toBe(count.format(value));
  });

  it("are written without building an Intl formatter (its locale data is a long task on a phone)", async () => {
    vi.resetModules();
    const numberFormat = vi.spyOn(Intl, "NumberFormat");
    const fresh = await import("./money");
    expect(fresh.formatMoney(5000, "Bs.")).toBe("Bs. 5.000,00");
    expect(fresh.formatCount(20000)).toBe("20.000");
    expect(numberFormat).not.toHaveBeenCalled();
  });
});
