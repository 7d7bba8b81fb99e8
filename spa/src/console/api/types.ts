/**
 * The console API's JSON, as the issue 27 contract (docs/console-api.md) writes it.
 * Times are ISO 8601 strings unless named `...S` (seconds) or given as epoch seconds.
 * The types the gateway declares come from types.gen.ts (`make contracts`), under the names the console
 * uses; the rest are written here (see each one's comment for why).
 */
import type {
  Acknowledged,
  Applied as ChangeApplied,
  Approval,
  Item,
  WindowView,
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

export type {
  Approval,
  AuditEntry,
  AuditPage,
  ConsoleSession,
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

/** A skin's setting as the console sends it (`POST /admin/api/settings`); `value`: the minutes, null for off. */
export interface SettingEdit {
  skin: string;
  setting: "reality_check_minutes";
  value: number | null;
  baseVersion: string;
}

export interface RollbackEdit {
  to: string;
  baseVersion: string;
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
export type MaintenanceWindow = WindowView;

/** A change, rollback or canary start kept for later: at a time (`Scheduled`), or for a second operator. */
export type Planned = Scheduled | Approval;
export type Scheduled = Item;

/** A change's answer when it did not run at once (202). */
export type Deferred = { scheduled: Scheduled } | { approval: Approval };
