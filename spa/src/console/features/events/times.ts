/** A datetime-local input's value (the operator's local time) as epoch seconds; "" when empty. */
export function localToEpoch(local: string): string {
  const at = local ? Date.parse(local) : Number.NaN;
  return Number.isNaN(at) ? "" : String(Math.floor(at / 1000));
}

/** Epoch seconds as a datetime-local input's value (local time, to the minute); "" when empty. */
export function epochToLocal(epoch: string | undefined): string {
  const at = epoch ? new Date(Number(epoch) * 1000) : null;
  if (!at || Number.isNaN(at.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
