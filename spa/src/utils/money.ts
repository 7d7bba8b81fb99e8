// Header money (section 9): the skin's symbol, Argentine Spanish digits, always 2 decimals.
// Built on first use, not at start: a first Intl formatter loads locale data (~15 ms on a
// desktop, several times that on a phone), and a visitor's first screen shows no money.
let amount: Intl.NumberFormat | undefined;

/** 5000 -> "Bs. 5.000,00"; a missing value shows as 0,00. */
export function formatMoney(value: number | null | undefined, symbol: string): string {
  amount ??= new Intl.NumberFormat("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const digits = amount.format(typeof value === "number" && Number.isFinite(value) ? value : 0);
  return symbol ? `${symbol} ${digits}` : digits;
}
