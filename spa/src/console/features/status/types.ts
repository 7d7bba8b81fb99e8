/** GET /admin/api/status: the status line, as the instance's last round (every `everyS`) saw it. */
export type StatusLevel = "ok" | "degraded" | "down";

export interface Problem {
  kind: "upstream" | "breaker" | "storm" | "instance" | "store" | "config";
  level: Exclude<StatusLevel, "ok">;
  since: string | null;
  skin: string | null;
  upstream: string | null;
  instance: string | null;
  /** upstream: why it is down; breaker: its state; storm: the share; instance: seconds unseen; config: the error. */
  detail: string | null;
}

/** A live canary (issue 38): which skin's upstream, where it stands, the share its new upstream gets. */
export interface StatusCanary {
  id: string;
  skin: string;
  upstream: string;
  state: "running" | "paused";
  step: number;
  share: number;
}

export interface ClusterStatus {
  level: StatusLevel;
  problems: Problem[];
  store: { kind: "memory" | "redis"; status: "ok" | "unavailable"; since: string | null; answeredAt: string | null };
  watchedAt: string | null;
  ageS: number | null;
  everyS: number;
  /** Maintenance windows on now or to come (epoch seconds); absent from older gateways. */
  maintenance?: { skin: string; from: number; until: number; active: boolean }[];
  /** Live canaries (a gateway before issue 38 sends none). */
  canaries?: StatusCanary[];
}
