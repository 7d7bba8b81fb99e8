/**
 * The canary API's JSON (the shared contract of issue 38; `gateway/canary/model.py` rendered by
 * msgspec, camelCase). Times are epoch seconds; shares are 0..1.
 */

export type CanaryState = "running" | "paused" | "promoted" | "rolled-back" | "aborted";
export const LIVE_STATES: readonly CanaryState[] = ["running", "paused"];

export interface Step {
  share: number;
  holdS: number;
}

export interface Thresholds {
  maxErrorShare: number;
  maxRefusalRise: number;
  maxP99S: number;
  maxLoginDrop: number;
  maxMoneyDrop: number;
  minAnswers: number;
  failedChecks: number;
  checkEveryS: number;
}

/** One side's figures over a check's window (shares null: nothing to count). */
export interface Figures {
  answers: number;
  errors: number | null;
  refused: number | null;
  p99S: number | null;
  logins: number;
  loginSuccess: number | null;
  money: number;
  moneySuccess: number | null;
}

export type Outcome = "passed" | "failed" | "too-few";

export interface Verdict {
  at: number;
  step: number;
  share: number;
  outcome: Outcome;
  /** What failed, as the trail keeps it ("p99 812 ms > 500 ms at 10 %"). */
  reasons: string[];
  old: Figures;
  new: Figures;
}

export interface Canary {
  id: string;
  skin: string;
  upstream: string;
  /** The old side's base URL, and the new side's. */
  before: string;
  after: string;
  steps: Step[];
  thresholds: Thresholds;
  state: CanaryState;
  step: number;
  stepStarted: number;
  started: number;
  startedBy: string;
  reason: string;
  baseVersion: string;
  /** Failed checks in the current step. */
  failed: number;
  lastCheck: number;
  verdicts: Verdict[];
  ended: number | null;
  endedBy: string | null;
  endedReason: string | null;
  promotedVersion: string | null;
  drainUntil: number | null;
  revision: number;
  /** The share sent to the new upstream now (0 once it is over), added by the API. */
  share: number;
}

/** POST /admin/api/canaries. */
export interface CanaryStart {
  skin: string;
  upstream: string;
  url: string;
  baseVersion: string;
  reason: string;
  steps: Step[];
  thresholds: Thresholds;
  override?: { reason: string };
}

/** A skin that needs a second operator's approval answers 202 with the request waiting for it. */
export interface Approval {
  id: string;
  state: "pending" | "approved" | "rejected" | "expired";
}

export type Started = { canary: Canary } | { approval: Approval };

export type CanaryAction = "pause" | "resume" | "promote" | "abort";

export const isLive = (canary: Pick<Canary, "state">): boolean => LIVE_STATES.includes(canary.state);
