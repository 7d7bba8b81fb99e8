// The site's numbers: Argentine digits, a dot for thousands and a
// comma for decimals, in every language, so a count of points never looks different from the
// money beside it. Formatters are built on first use, not at start: a first Intl formatter loads
// locale data (~15 ms on a desktop, several times that on a phone), and a first screen shows none.
const DIGITS = "es-AR";
let amount: Intl.NumberFormat | undefined;
let count: Intl.NumberFormat | undefined;

/** 5000 -> "Bs. 5.000,00"; a missing value shows as 0,00. */
export function formatMoney(value: number | null | undefined, symbol: string): string {
  amount ??= new Intl.NumberFormat(DIGITS, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "always" });
  const digits = amount.format(typeof value === "number" && Number.isFinite(value) ? value : 0);
  return symbol ? `${symbol} ${digits}` : digits;
}

/** formatMoney kept on one line inside a sentence: "Bs. 50.000,00" never splits after "Bs.". */
export function moneyInText(value: number | null | undefined, symbol: string): string {
  return formatMoney(value, symbol).replace(" ", "\u00a0");
}

/** Points and other counts: 1000 -> "1.000", 20000 -> "20.000" (whole numbers, always grouped). */
export function formatCount(value: number | null | undefined): string {
  count ??= new Intl.NumberFormat(DIGITS, { maximumFractionDigits: 0, useGrouping: "always" });
  return count.format(typeof value === "number" && Number.isFinite(value) ? value : 0);
}
