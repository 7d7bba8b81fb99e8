/** What GET /bff/session says about the visitor; never the upstream session id. */
export interface BffSession {
  loggedIn: boolean;
  login: string | null;
  /** When the player signed in (epoch ms by the gateway's clock; null for a visitor; absent from older gateways). */
  signedInAt?: number | null;
  /** The gateway's clock when it answered (epoch ms): a tab's session clock counts from it, not from its own. */
  now?: number;
}
