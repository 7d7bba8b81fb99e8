import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { contractRules } from "../../api/rules.gen";
import { toAppError } from "../../api/errors";
import { useAppDispatch } from "../../lib/store/hooks";
import { closeAuth, showNotice } from "../../lib/store/uiSlice";
import { TextField } from "../../forms/Field";
import { lettersAndDigitsOnly } from "../../forms/keys";
import { useForm, useFormMessage } from "../../forms/useForm";
import { useForgotPasswordMutation } from "./authApi";

/** Section 4: an unknown account's message shows for 5 s. */
export const FORGOT_ERROR_MS = 5000;

const rules = contractRules.forms.forgotPassword;

export function ForgotPasswordForm() {
  const { t } = useTranslation("auth");
  const tf = useTranslation("forms").t;
  const formMessage = useFormMessage();
  const dispatch = useAppDispatch();
  const [forgot, { isLoading }] = useForgotPasswordMutation();
  const form = useForm(rules, { email: "", login: "" });
  const [failure, setFailure] = useState<{ text: string; timed: boolean } | null>(null);

  useEffect(() => {
    if (!failure?.timed) return;
    const timer = setTimeout(() => setFailure(null), FORGOT_ERROR_MS);
    return () => clearTimeout(timer);
  }, [failure]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid || isLoading) return;
    try {
      const reply = await forgot({
        email: String(form.values.email).trim().toLowerCase(),
        login: String(form.values.login),
      }).unwrap();
      if (reply.success === false) {
        setFailure({ text: t("forgot.unknownAccount"), timed: true });
        return;
      }
      dispatch(closeAuth());
      dispatch(showNotice({ kind: "message", variant: "success", text: t("forgot.sent") }));
    } catch (error) {
      setFailure({ text: formMessage(toAppError(error as Parameters<typeof toAppError>[0]).message), timed: false });
    }
  }

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="auth-title-forgot">
      <h2 id="auth-title-forgot" className="auth-form__title">
        {t("forgot.title")}
      </h2>
      <p className="auth-form__lead">{t("forgot.lead")}</p>
      <TextField
        name="email"
        type="email"
        label={tf("labels.email")}
        autoComplete="email"
        value={String(form.values.email)}
        error={form.errors.email}
        onValue={(value) => form.set("email", value)}
        onBlur={() => form.touch("email")}
        onFocus={() => setFailure(null)}
        data-autofocus
      />
      <TextField
        name="login"
        label={tf("labels.login")}
        autoComplete="username"
        value={String(form.values.login)}
        error={form.errors.login}
        onValue={(value) => form.set("login", value)}
        onKeyDown={lettersAndDigitsOnly}
        onBlur={() => form.touch("login")}
        onFocus={() => setFailure(null)}
        maxLength={15}
      />
      {failure && (
        <p className="auth-form__error" role="alert" data-testid="auth-error">
          {failure.text}
        </p>
      )}
      <button
        type="submit"
        className="button button--primary button--block"
        data-testid="forgot-submit"
        disabled={!form.valid || isLoading}
        aria-busy={isLoading}
      >
        {t("forgot.submit")}
      </button>
    </form>
  );
}
