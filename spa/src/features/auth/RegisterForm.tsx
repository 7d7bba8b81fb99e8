import { Trans, useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";

import type { RegisterRequest } from "../../api/contracts.gen";
import { contractRules } from "../../api/rules.gen";
import { DEFAULT_FAILURE } from "../../api/errors";
import { TextField } from "../../forms/Field";
import { lettersAndDigitsOnly } from "../../forms/keys";
import { useForm } from "../../forms/useForm";
import { sessionApi } from "../../lib/session/sessionApi";
import { useAppDispatch } from "../../lib/store/hooks";
import { closeAuth, showNotice } from "../../lib/store/uiSlice";
import { AuthFailure } from "./AuthFailure";
import { useRegisterMutation } from "./authApi";
import { loginErrorKey } from "./loginErrors";
import { referralFields, rememberRegistration } from "./referral";
import { useAuthForm, type AuthOutcome } from "./useAuthForm";

/** The province is always LA RIOJA. */
export const PROVINCE = "LA RIOJA";

const rules = contractRules.forms.register;

type RegisterFields = { login: string; password: string; email: string; promocode?: string; acceptTerms: boolean };

/** The registration payload: nickname and firstName from the login, the e-mail lower-cased,
 * state LA RIOJA; acceptTerms stays in the form. */
export function registerPayload(fields: RegisterFields, storage: Storage = localStorage): RegisterRequest {
  return {
    login: fields.login,
    nickname: fields.login,
    firstName: fields.login,
    lastName: "",
    email: fields.email.trim().toLowerCase(),
    password: fields.password,
    ssn: "",
    ...referralFields(storage),
    address: { address: "", city: "", phone: "", state: PROVINCE },
    ...(fields.promocode?.trim() ? { promocode: fields.promocode.trim() } : {}),
  };
}

export function RegisterForm() {
  const { t } = useTranslation("auth");
  const tf = useTranslation("forms").t;
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [register, { isLoading }] = useRegisterMutation();
  const form = useForm(
    { login: rules.login, password: rules.password, email: rules.email, acceptTerms: rules.acceptTerms },
    { login: "", password: "", email: "", promocode: "", acceptTerms: false },
  );
  const { failure, submit, field, formMessage } = useAuthForm(form, isLoading);

  async function signUp(): Promise<AuthOutcome> {
    const fields = {
      login: String(form.values.login),
      password: String(form.values.password),
      email: String(form.values.email),
      promocode: String(form.values.promocode),
      acceptTerms: form.values.acceptTerms === true,
    };
    const reply = await register(registerPayload(fields)).unwrap();
    if (!reply.success) {
      const description = reply.description ?? reply.message ?? "";
      const key = loginErrorKey(description);
      const fieldErrors = (reply as { errors?: Record<string, string> | null }).errors;
      return { ok: false, message: key ? t(key) : formMessage(description || DEFAULT_FAILURE), fields: fieldErrors };
    }
    rememberRegistration(reply.loginResponse?.affiliatePostBackURL);
    // The root view's variant: a sign-up that left no session asks the player to log in.
    const session = await dispatch(sessionApi.endpoints.getSession.initiate(undefined, { forceRefetch: true, subscribe: false }))
      .unwrap()
      .catch(() => null);
    const text = session?.loggedIn === false ? `${t("register.success")} ${t("register.successLogin")}` : t("register.success");
    dispatch(closeAuth());
    dispatch(showNotice({ kind: "message", variant: "success", title: t("register.successTitle"), text }));
    void navigate("/home");
    return { ok: true };
  }

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void submit(event, signUp)} aria-labelledby="auth-title-register">
      <h2 id="auth-title-register" className="auth-form__title">
        {t("register.title")}
      </h2>
      <TextField
        {...field("login")}
        label={tf("labels.login")}
        autoComplete="username"
        hint={formMessage(rules.login.hint)}
        onKeyDown={lettersAndDigitsOnly}
        maxLength={15}
        data-autofocus
      />
      <TextField
        {...field("password")}
        type="password"
        label={tf("labels.password")}
        autoComplete="new-password"
        hint={formMessage(rules.password.hint)}
        maxLength={15}
      />
      <TextField {...field("email")} type="email" label={tf("labels.email")} autoComplete="email" />
      <TextField {...field("promocode")} label={tf("labels.promocode")} autoComplete="off" />
      <div className={form.errors.acceptTerms ? "field field--invalid" : "field"}>
        <label className="checkbox">
          <input
            type="checkbox"
            name="acceptTerms"
            checked={form.values.acceptTerms === true}
            aria-invalid={form.errors.acceptTerms ? true : undefined}
            onChange={(event) => {
              form.set("acceptTerms", event.target.checked);
              form.touch("acceptTerms");
            }}
          />
          <span>
            <Trans
              t={t}
              i18nKey="register.acceptTerms"
              components={{
                terms: <Link to="/termsandconditions" target="_blank" />,
                privacy: <Link to="/privacypolicy" target="_blank" />,
              }}
            />
          </span>
        </label>
        {form.errors.acceptTerms && (
          <p className="field__error" role="alert">
            {form.errors.acceptTerms}
          </p>
        )}
      </div>
      <AuthFailure text={failure} />
      <button
        type="submit"
        className="button button--primary button--block"
        data-testid="register-submit"
        disabled={!form.valid || isLoading}
        aria-busy={isLoading}
      >
        {isLoading && <span className="spinner" aria-hidden="true" />}
        {isLoading ? t("register.submitting") : t("register.submit")}
      </button>
    </form>
  );
}
