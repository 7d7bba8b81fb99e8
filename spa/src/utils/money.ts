// The site's numbers: Argentine digits, a dot for thousands and a comma for decimals, in every
// language, so a count of points never looks different from the money beside it. Written out
// here rather than by an Intl.NumberFormat: the page's first Intl formatter loads the locale's
// data, and on a logged-in page that was the header's balance, a long task of its own on every
// page (60-150 ms in Lighthouse's 4x-slower CPU; docs/player-site.md, Lighthouse).

/** `value` rounded to `decimals` places as Intl rounds it (half away from zero, on the number's
 * shortest decimal form: 1.005 -> 1,01), the thousands grouped by dots. */
function grouped(value: number, decimals: number): string {
  const size = Math.abs(value);
  const shifted = Number(`${size}e${decimals}`); // exact in decimal, unlike size * 10 ** decimals
  const units = String(Math.round(Number.isNaN(shifted) ? size * 10 ** decimals : shifted)).padStart(decimals + 1, "0");
  const whole = units.slice(0, units.length - decimals).replace(/\B(?=(\d{3})+$)/g, ".");
  const sign = value < 0 ? "-" : "";
  return decimals ? `${sign}${whole},${units.slice(-decimals)}` : `${sign}${whole}`;
}

function finite(value: number | null | undefined): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** 5000 -> "Bs. 5.000,00"; a missing value shows as 0,00. */
export function formatMoney(value: number | null | undefined, symbol: string): string {
  const digits = grouped(finite(value), 2);
  return symbol ? `${symbol} ${digits}` : digits;
}

/** formatMoney kept on one line inside a sentence: "Bs. 50.000,00" never splits after "Bs.". */
export function moneyInText(value: number | null | undefined, symbol: string): string {
  return formatMoney(value, symbol).replace(" ", "\u00a0");
}

/** Points and other counts: 1000 -> "1.000", 20000 -> "20.000" (whole numbers, always grouped). */
export function formatCount(value: number | null | undefined): string {
  return grouped(finite(value), 0);
}
