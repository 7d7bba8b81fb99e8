import { useGetSessionQuery } from "./sessionApi";

export interface SessionView {
  /** false until /bff/session has answered once. */
  known: boolean;
  loggedIn: boolean;
  login: string | null;
}

/** Whether the visitor is logged in, and as whom; every screen reads the session through this. */
export function useSession(): SessionView {
  const { data, isSuccess } = useGetSessionQuery();
  return { known: isSuccess, loggedIn: data?.loggedIn ?? false, login: data?.login ?? null };
}
