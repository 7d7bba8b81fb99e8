/**
 * The console API's JSON, as the issue 27 contract (docs/console-api.md) writes it.
 * Times are ISO 8601 strings unless named `...S` (seconds) or given as epoch seconds.
 * The types the gateway declares come from types.gen.ts (`make contracts`); the rest are written here.
 */
import type {
  AuditAction,
  AuditResult,
  Called,
  Change,
  Changed,
  Checked,
  Probed,
  Role,
  SignInForm,
  VersionAction,
} from "./types.gen";

export type { AuditAction, AuditResult, Change, ProbeErrorCode, Role, VersionAction } from "./types.gen";

export interface ConsoleSession {
  name: string;
  role: Role;
  /** The skins they may change; empty (or absent): every skin. */
  skins?: string[];
  idleExpiresAt: string;
  expiresAt: string;
}

export type SignIn = SignInForm;

/**
 * An upstream changed since the version a write was made from (a 409's `changes`), and who changed it last:
 * how (`via`: console, token, file, cli, system; `via.*` in common.json), and the configuration version that
 * change made.
 */
export type ConflictChange = Changed;

/** 409 VERSION_CONFLICT: a skin the write touches changed since its `baseVersion`. */
export interface Conflict {
  /** The configuration version now current: the base to start again from. */
  current: string;
  /** The skins the write touches that moved meanwhile (a change to another skin never conflicts). */
  skins: string[];
  changes: ConflictChange[];
}

export interface Health {
  status: "up" | "down" | "unknown";
  latencyMs: number | null;
  checkedAt: string | null;
  detail: string | null;
}

export interface Breaker {
  state: "closed" | "half-open" | "open";
  since: string | null;
}

export interface Upstream {
  name: string;
  url: string;
  overridden: boolean;
  fileUrl: string;
  health: Health;
  breaker: Breaker;
}

/** Platform answers refused (a 502 for that call) as breaking their route's contract. */
export interface ContractBreach {
  route: string;
  count: number;
}

export interface Skin {
  id: string;
  name: string;
  siteId: string;
  hosts: string[];
  upstreams: Upstream[];
  /** Hosts (`*.domain`, either with `:port`) its upstreams may point at: the deployment's, read only. */
  allowedHosts?: string[];
  /** Per route, most first; empty when none broke it. */
  contractBreaches?: ContractBreach[];
  /** The platform's refusals (`success: false`) by route class and code, most first (this listener's counts). */
  platformErrors?: PlatformError[];
  /** Its changes wait for a second operator's approval (the skins file's `approval = true`). */
  approval?: boolean;
}

export interface PlatformError {
  routeClass: string;
  /** A code the contracts know, `other` or `none`. */
  code: string;
  count: number;
}

export interface Overview {
  config: { version: string; source: string; changedAt: string | null; error: string | null; errorAt: string | null };
  operatorsFile: { error: string | null; errorAt: string | null };
  store: { kind: "memory" | "redis"; status: string };
  /** Whose counts the skins' `contractBreaches` are: this process's, or its workers' summed. */
  contractBreaches?: { scope: "instance" | "workers" };
  skins: Skin[];
}

export interface SkinSeries {
  t: number[];
  rps: number[];
  errorRate: (number | null)[];
  /** Answers the platform refused (HTTP 200 `success: false`) over all answers; and those `SESSION_EXPIRED`. */
  platformErrorRate: (number | null)[];
  sessionExpiredRate: (number | null)[];
  p95Ms: (number | null)[];
  cacheHitRatio: (number | null)[];
}

export interface Series {
  stepS: number;
  scope: "cluster" | "instance";
  from: number;
  to: number;
  skins: Record<string, SkinSeries>;
}

export interface Instance {
  id: string;
  host: string;
  pid: number;
  appVersion: string;
  startedAt: string;
  uptimeS: number;
  configVersion: string;
  draining: boolean;
  workers: number | null;
  sameVersion: boolean;
  /** Seconds since its last heartbeat (null: none yet); past 6 s it is stale. */
  lastSeenS: number | null;
  state: "serving" | "draining" | "stale";
}

export interface Instances {
  current: string;
  instances: Instance[];
}

export interface ConfigVersion {
  /** The history entry's own id (a version can come back: the same file and overrides again). */
  id?: string;
  version: string;
  previous: string | null;
  at: string;
  who: string | null;
  via: string | null;
  reason: string | null;
  action: VersionAction;
  changes: Change[];
  /** Each skin's own version in this one: what a write made from it is checked against. */
  skins?: Record<string, string>;
}

export interface History {
  current: string;
  versions: ConfigVersion[];
  /** The next (older) page's cursor; null on the last page. */
  next?: string | null;
}

export type Probe = Probed;

/** One documented call of the platform's check of a new base URL. */
export type CheckedCall = Called;

/** Whether a new base URL speaks the platform: its documented calls for one skin's upstream. */
export type Check = Checked;

/**
 * Apply although a new base URL failed the platform's check: why, kept in the audit trail (what the console
 * sends: the gateway's `Override` also takes a missing reason, to word its error).
 */
export interface Override {
  reason: string;
}

/** changes/preview and rollback/preview. A rollback may probe and check several URLs (`probes`, `checks`). */
export interface Preview {
  baseVersion: string;
  current: string;
  stale: boolean;
  changes: Change[];
  probe?: Probe | null;
  probes?: Probe[];
  check?: Check | null;
  checks?: Check[];
  fileDiffers?: boolean;
}


export interface Live {
  acknowledged: number;
  total: number;
  missing: { id: string; host: string }[];
  waitedS: number;
}

/** What an applied change or rollback answers. */
export interface Applied {
  version: string;
  previous: string;
  changes: Change[];
  live: Live;
  fileDiffers?: boolean;
}

export interface UpstreamEdit {
  skin: string;
  upstream: string;
  /** `null`: back to the skins file's value. */
  url: string | null;
  baseVersion: string;
}

export interface RollbackEdit {
  to: string;
  baseVersion: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  action: AuditAction;
  who: string;
  via: string;
  address: string | null;
  outcome: AuditResult;
  skin: string | null;
  target: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
  detail: unknown;
}

export interface AuditPage {
  entries: AuditEntry[];
  next: string | null;
}

export interface AuditFilters {
  action?: string;
  who?: string;
  skin?: string;
  since?: string;
  until?: string;
}

export interface Purged {
  skin: string;
  purged: { local: number; shared: number };
}

export interface Revoked {
  skin: string;
  login: string;
  sessionsEnded: number;
  /** false: the login had no live session (mistyped?); nothing was ended. */
  found?: boolean;
  /** Until when the player's sign-ins on the skin are refused (null: `SIGN_IN_BLOCK_S` is 0). */
  blockedUntil?: string | null;
}

/** A skin's maintenance window (GET /admin/api/maintenance; epoch seconds). */
export interface MaintenanceWindow {
  skin: string;
  from: number;
  until: number;
  reason: string;
  by: string;
  at: number;
  message: Partial<Record<"es" | "pt" | "en", string>>;
  /** On now (else still to come). */
  active: boolean;
}

/** A change, rollback or canary start kept for later: at a time, or for a second operator. */
export interface Planned {
  id: string;
  kind: "change" | "rollback" | "canary";
  skin: string;
  upstream: string | null;
  url: string | null;
  by: string;
  reason: string;
  created: number;
  outcome: string | null;
  ended: number | null;
  endedBy: string | null;
  endedReason: string | null;
}

export interface Scheduled extends Planned {
  at: number;
  state: "pending" | "done" | "failed" | "cancelled";
}

export interface Approval extends Planned {
  at: number | null;
  state: "pending" | "approved" | "rejected" | "expired";
  expires: number;
}

/** A change's answer when it did not run at once (202). */
export type Deferred = { scheduled: Scheduled } | { approval: Approval };
