import { useGetSessionQuery } from "./sessionApi";

export interface SessionView {
  /** false until /bff/session has answered once. */
  known: boolean;
  loggedIn: boolean;
  login: string | null;
}

/** Whether the visitor is logged in, and as whom; every screen reads the session through this.
 * Only these three re-render a reader (RTK Query's `selectFromResult`, compared shallowly): the
 * layout reads the session through three hooks, and a refetch's `isFetching` and timestamps
 * re-rendered the whole page twice each (issue 40's long tasks). */
export function useSession(): SessionView {
  const { known, loggedIn, login } = useGetSessionQuery(undefined, {
    selectFromResult: ({ data, isSuccess }) => ({
      known: isSuccess,
      loggedIn: data?.loggedIn ?? false,
      login: data?.login ?? null,
    }),
  });
  return { known, loggedIn, login };
}
