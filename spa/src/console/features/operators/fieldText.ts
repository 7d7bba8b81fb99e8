import { useTranslation } from "react-i18next";

import type { FieldError } from "../../api/errors";
import { useErrorText } from "../../lib/errorText";

/** The operators' own field codes (gateway/accounts/roster.py), translated here; the others as the console words them. */
const CODES = [
  "NAME_INVALID", "NAME_TAKEN", "UNKNOWN_OPERATOR", "SKIN_INVALID", "LAST_ADMIN", "PASSWORD_TOO_SHORT",
  "PASSWORD_TOO_LONG", "PASSWORD_HAS_NAME", "PASSWORD_TOO_SIMPLE", "PASSWORDS_DIFFER", "LINK_INVALID", "LINK_EXPIRED",
] as const;
type Code = (typeof CODES)[number];
const isCode = (code: string): code is Code => (CODES as readonly string[]).includes(code);

/** A field error in the operator's language. */
export function useFieldText(): (problem: FieldError) => string {
  const { t } = useTranslation("operators");
  const text = useErrorText();
  return (problem) => (isCode(problem.code) ? t(`fields.${problem.code}`) : text.field(problem));
}
