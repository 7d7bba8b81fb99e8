import { useTranslation } from "react-i18next";

import { contractRules } from "../../api/rules.gen";
import { TextField } from "../../forms/Field";
import { lettersAndDigitsOnly } from "../../forms/keys";
import { useForm } from "../../forms/useForm";
import { useAppDispatch } from "../../lib/store/hooks";
import { closeAuth, showNotice } from "../../lib/store/uiSlice";
import { AuthFailure } from "./AuthFailure";
import { useForgotPasswordMutation } from "./authApi";
import { useAuthForm, type AuthOutcome } from "./useAuthForm";

/** An unknown account's message shows for 5 s. */
export const FORGOT_ERROR_MS = 5000;

const rules = contractRules.forms.forgotPassword;

export function ForgotPasswordForm() {
  const { t } = useTranslation("auth");
  const tf = useTranslation("forms").t;
  const dispatch = useAppDispatch();
  const [forgot, { isLoading }] = useForgotPasswordMutation();
  const form = useForm(rules, { email: "", login: "" });
  const { failure, submit, field } = useAuthForm(form, isLoading);

  async function requestReset(): Promise<AuthOutcome> {
    const reply = await forgot({
      email: String(form.values.email).trim().toLowerCase(),
      login: String(form.values.login),
    }).unwrap();
    if (reply.success === false) return { ok: false, message: t("forgot.unknownAccount"), shownFor: FORGOT_ERROR_MS };
    dispatch(closeAuth());
    dispatch(showNotice({ kind: "message", variant: "success", text: t("forgot.sent") }));
    return { ok: true };
  }

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void submit(event, requestReset)} aria-labelledby="auth-title-forgot">
      <h2 id="auth-title-forgot" className="auth-form__title">
        {t("forgot.title")}
      </h2>
      <p className="auth-form__lead">{t("forgot.lead")}</p>
      <TextField {...field("email")} type="email" label={tf("labels.email")} autoComplete="email" data-autofocus />
      <TextField {...field("login")} label={tf("labels.login")} autoComplete="username" onKeyDown={lettersAndDigitsOnly} maxLength={15} />
      <AuthFailure text={failure} />
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
