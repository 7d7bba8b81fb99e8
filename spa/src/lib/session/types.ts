/** What GET /bff/session says about the visitor; never the upstream session id. */
export interface BffSession {
  loggedIn: boolean;
  login: string | null;
}
