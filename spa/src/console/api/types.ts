/**
 * The console API's JSON, as the issue 27 contract (docs/console-api.md) writes it.
 * Times are ISO 8601 strings unless named `...S` (seconds) or given as epoch seconds.
 * The types the gateway declares come from types.gen.ts (`make contracts`), under the names the console
 * uses; the rest are written here (see each one's comment for why).
 */
import type {
  Acknowledged,
  Applied as ChangeApplied,
  BreakerState,
  Called,
  Chart,
  Changed,
  Checked,
  HistoryPage,
  InstanceList,
  InstanceView,
  Preview as ChangePreview,
  Probed,
  RollbackPreview,
  RolledBack,
  SignInForm,
  SkinFigures,
  SkinView,
  UpstreamHealth,
  UpstreamView,
  VersionConflict,
  VersionView,
} from "./types.gen";
import type { AuditAction, AuditResult, Role } from "./types.gen";

export type {
  AuditAction,
  AuditResult,
  Change,
  ContractBreach,
  Overview,
  PlatformError,
  ProbeErrorCode,
  Purged,
  Revoked,
  Role,
  VersionAction,
} from "./types.gen";

/** Written here, for now: the gateway builds it as a dict (gateway/console/admin.py). */
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

/** 409 VERSION_CONFLICT: a skin the write touches changed since its `baseVersion` (what the console keeps of it). */
export type Conflict = Pick<VersionConflict, "current" | "skins" | "changes">;

export type Health = UpstreamHealth;
export type Breaker = BreakerState;
export type Upstream = UpstreamView;
export type Skin = SkinView;
export type SkinSeries = SkinFigures;
export type Series = Chart;
export type Instance = InstanceView;
export type Instances = InstanceList;
export type ConfigVersion = VersionView;
export type History = HistoryPage;
export type Live = Acknowledged;

/** changes/preview and rollback/preview (a rollback's also says `to` and `fileDiffers`). */
export type Preview = ChangePreview & Partial<Pick<RollbackPreview, "to" | "fileDiffers">>;

/** What an applied change or rollback answers (a rollback's also says `to` and `fileDiffers`). */
export type Applied = ChangeApplied & Partial<Pick<RolledBack, "to" | "fileDiffers">>;

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

/** What the console sends for a change (the gateway reads it with its own `Asked`, shared by every write). */
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

/** The client's own: the audit view's filters, sent as the query. */
export interface AuditFilters {
  action?: string;
  who?: string;
  skin?: string;
  since?: string;
  until?: string;
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
