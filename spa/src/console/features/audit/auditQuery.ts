import type { AuditAction, AuditFilters, Role } from "../../api/types";

/** What viewers and operators see of the trail; admins see every action (the contract's roles). */
export const CHANGE_ACTIONS: AuditAction[] = [
  "change", "rollback", "reload", "purge", "revoke",
  // canaries: an operator's moves, and the controller's (`system`: steps, rollback, promotion)
  "canary-start", "canary-step", "canary-pause", "canary-resume", "canary-promote", "canary-rollback", "canary-abort",
  // planned ahead: maintenance windows, scheduled changes, approvals
  "maintenance-set", "maintenance-end", "schedule", "schedule-cancel", "schedule-run",
  "approval-asked", "approval-approved", "approval-rejected",
];
export const ALL_ACTIONS: AuditAction[] = [
  ...CHANGE_ACTIONS, "sign-in", "sign-in-failed", "sign-in-limited", "sign-out", "token-use", "operators-file-rejected",
  "refused", "token-limited", "export", "trail-imported", "trail-altered",
  // operators managed in the console and the CLI, and skin limits
  "operator-add", "operator-role", "operator-skins", "operator-disable", "operator-enable", "operator-password",
  "operator-sessions-ended", "operator-link", "operator-link-used", "operator-remove", "operator-token", "skin-refused",
];

export function actionsFor(role: Role | undefined): AuditAction[] {
  return role === "admin" ? ALL_ACTIONS : CHANGE_ACTIONS;
}

export const AUDIT_PAGE = 100;

/** The filters as the audit API's query string (empty ones left out), with the page's cursor or the export's format. */
export function auditQuery(filters: AuditFilters, extra: Record<string, string | null> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) {
    if (typeof value === "string" && value.trim() !== "") params.set(name, value.trim());
  }
  return params.toString();
}
