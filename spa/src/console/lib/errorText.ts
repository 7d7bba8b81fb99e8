import { useTranslation } from "react-i18next";

import type { ConsoleError, FieldError } from "../api/errors";
import { selectOperator } from "./session/sessionSlice";
import { useConsoleSelector } from "./store/hooks";

/** The gateway's error codes the console words itself (anything else shows the gateway's message). */
const ERROR_CODES = [
  "SIGNED_OUT", "SESSION_EXPIRED", "CSRF", "FORBIDDEN", "SIGN_IN_FAILED", "SIGN_IN_LIMITED", "VERSION_CONFLICT",
  "STORE_UNAVAILABLE", "INVALID", "SKIN_FORBIDDEN", "SELF_APPROVAL", "APPROVAL_ENDED", "SCHEDULED_ENDED", "NO_MAINTENANCE",
  // canaries (issue 38)
  "CANARY_RUNNING", "CANARY_ENDED", "CANARY_NOT_FOUND", "SCHEDULED_CHANGE_DUE", "NO_CANARIES",
  "APPROVAL_REQUIRED",
] as const;

/** The contract's field codes (docs/console-api.md, "Field errors"). */
const FIELD_CODES = [
  "REQUIRED", "URL_INVALID", "URL_SCHEME", "URL_HAS_PATH_QUERY", "URL_UNREACHABLE", "UNKNOWN_SKIN", "UNKNOWN_UPSTREAM",
  "UNKNOWN_VERSION", "REASON_TOO_SHORT", "REASON_TOO_LONG", "UNCHANGED", "CONTRACT_BROKEN", "URL_CREDENTIALS", "URL_PATH",
  "URL_HOST_FORM", "URL_HOST_NOT_ALLOWED",
  "TIME_INVALID", "TIME_PAST", "TIME_TOO_FAR", "TIME_OVERLAPS", "TIME_BEFORE_START", "UNKNOWN_LANGUAGE", "MESSAGE_TOO_LONG",
  "STEPS_INVALID", "THRESHOLD_INVALID", "OUT_OF_RANGE", "UNKNOWN_SETTING",
] as const;

type ErrorCode = (typeof ERROR_CODES)[number];
type FieldCode = (typeof FIELD_CODES)[number];

const isErrorCode = (code: string | null): code is ErrorCode => (ERROR_CODES as readonly (string | null)[]).includes(code);
const isFieldCode = (code: string): code is FieldCode => (FIELD_CODES as readonly string[]).includes(code);

/** Error texts in the operator's language: known codes translated, others as the gateway wrote them. */
export function useErrorText() {
  const { t } = useTranslation();
  const role = useConsoleSelector(selectOperator)?.role;

  function error(problem: ConsoleError): string {
    if (problem.status === "FETCH_ERROR" || problem.status === "TIMEOUT_ERROR") return t("errors.network");
    if (problem.code === "FORBIDDEN" || (problem.status === 403 && problem.needs)) {
      return t("errors.FORBIDDEN", { role: t(`roles.${role ?? "viewer"}`), needs: t(`roles.${problem.needs ?? "operator"}`) });
    }
    if (problem.code === "SIGN_IN_LIMITED" || problem.status === 429) {
      const minutes = Math.max(1, Math.ceil((problem.retryAfterS ?? 60) / 60));
      return t("errors.SIGN_IN_LIMITED", { count: minutes });
    }
    if (isErrorCode(problem.code)) return t(`errors.${problem.code}`);
    return problem.message ?? t("errors.unknown", { status: problem.status });
  }

  function field(problem: FieldError): string {
    return isFieldCode(problem.code) ? t(`fields.${problem.code}`) : problem.message || problem.code;
  }

  return { error, field };
}
