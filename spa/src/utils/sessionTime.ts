/** 3725 s -> "1:02:05": a session's length as the header's clock and the reality check show it. */
export function formatSessionTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${Math.floor(whole / 3600)}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}`;
}

/** Milliseconds since sign-in now, by the gateway's clock: its `now` when it answered, plus the
 * time this tab has counted since (so a tab whose own clock is wrong reads the same as the others). */
export function sessionElapsedMs(signedInAt: number, serverNow: number, receivedAt: number, localNow: number): number {
  return serverNow - signedInAt + (localNow - receivedAt);
}
