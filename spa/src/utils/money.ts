// Header money (section 9): the skin's symbol, Argentine Spanish digits, always 2 decimals.
const amount = new Intl.NumberFormat("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 5000 -> "Bs. 5.000,00"; a missing value shows as 0,00. */
export function formatMoney(value: number | null | undefined, symbol: string): string {
  const digits = amount.format(typeof value === "number" && Number.isFinite(value) ? value : 0);
  return symbol ? `${symbol} ${digits}` : digits;
}
