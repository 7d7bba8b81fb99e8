import { useEffect, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";

import { SESSION_EXPIRED } from "../../../api/errors";
import { contractRules } from "../../../api/rules.gen";
import { useExclusiveCall } from "../../../api/useExclusiveCall";
import { FormError } from "../../../forms/FormError";
import { FormFields } from "../../../forms/FormFields";
import { useForm, useFormMessage } from "../../../forms/useForm";
import { useAppDispatch } from "../../../lib/store/hooks";
import { showNotice } from "../../../lib/store/uiSlice";
import { useUpdatePasswordMutation } from "../profileApi";

/** The password error clears after 3 s. */
export const PASSWORD_ERROR_MS = 3000;
/** The platform's refusal of a new password equal to the old one (two spaces, as it sends it). */
const SAME_PASSWORD = "Old Password and  New Password Cannot be the same";

/** The password change: old password, new one twice. */
export function PasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("profile");
  const formMessage = useFormMessage();
  const dispatch = useAppDispatch();
  const [updatePassword] = useUpdatePasswordMutation();
  const { run, busy } = useExclusiveCall(updatePassword);
  const form = useForm(contractRules.forms.passwordChange, { oldPassword: "", newPassword: "" });
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!failure) return;
    const timer = setTimeout(() => setFailure(null), PASSWORD_ERROR_MS);
    return () => clearTimeout(timer);
  }, [failure]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid) return;
    const outcome = await run({ oldPassword: String(form.values.oldPassword), newPassword: String(form.values.newPassword) });
    if (!outcome) return;
    if (!outcome.ok) {
      if (outcome.code === SESSION_EXPIRED) return;
      // 'Invalid argument' means the old password was wrong; the same-password refusal is translated.
      if (outcome.message === "Invalid argument") setFailure(t("password.messages.invalidOld"));
      else if (outcome.message === SAME_PASSWORD) setFailure(t("password.messages.same"));
      else setFailure(formMessage(outcome.message));
      return;
    }
    onDone();
    dispatch(showNotice({ kind: "message", text: t("password.messages.success"), variant: "success" }));
  }

  // Printable ASCII only; letters and digits are what the rule accepts.
  const printable = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key.length === 1 && !/^[\x20-\x7e]$/.test(event.key)) event.preventDefault();
  };

  return (
    <form className="profile-form" noValidate onSubmit={(event) => void submit(event)}>
      <FormFields
        form={form}
        onFocus={() => setFailure(null)}
        fields={[
          { name: "oldPassword", label: t("password.old"), type: "password", autoComplete: "current-password", maxLength: 15, keys: printable },
          { name: "newPassword", label: t("password.new"), type: "password", autoComplete: "new-password", maxLength: 15, keys: printable, hint: t("password.hint") },
        ]}
      />
      <FormError text={failure} testId="password-error" />
      <button type="submit" className="button button--primary" disabled={!form.valid || busy} data-testid="password-save">
        {t("password.submit")}
      </button>
    </form>
  );
}
