/** What the console's API cache keeps (RTK Query's state, as much as this reads of it). */
interface ApiCache {
  consoleApi: {
    queries: Record<string, { fulfilledTimeStamp?: number } | undefined>;
    subscriptions: Record<string, Record<string, { pollingInterval?: number }> | undefined>;
  };
}

/**
 * How old (ms) the oldest figures on the screen are, when some are older than twice their refresh
 * interval (a refresh failed, or never came back); null when every shown figure is fresh.
 */
export function staleFiguresMs(state: ApiCache, now: number): number | null {
  let oldest: number | null = null;
  for (const [key, subscribers] of Object.entries(state.consoleApi.subscriptions)) {
    const every = Math.max(0, ...Object.values(subscribers ?? {}).map((s) => s.pollingInterval ?? 0));
    const at = state.consoleApi.queries[key]?.fulfilledTimeStamp;
    if (!every || at === undefined) continue;
    const age = now - at;
    if (age > 2 * every && (oldest === null || age > oldest)) oldest = age;
  }
  return oldest;
}
