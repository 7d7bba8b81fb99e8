import { Trans, useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";

import { contractRules } from "../../api/rules.gen";
import { DEFAULT_FAILURE } from "../../api/errors";
import { TextField } from "../../forms/Field";
import { digitsOnly, lettersAndDigitsOnly } from "../../forms/keys";
import { useForm } from "../../forms/useForm";
import { sessionApi } from "../../lib/session/sessionApi";
import { useAppDispatch } from "../../lib/store/hooks";
import { closeAuth, showNotice } from "../../lib/store/uiSlice";
import { AuthFailure } from "./AuthFailure";
import { useRegisterMutation } from "./authApi";
import { loginErrorKey } from "./loginErrors";
import { rememberRegistration } from "./referral";
import { registerPayload, type RegisterFields } from "./registration";
import { useAuthForm, type AuthOutcome } from "./useAuthForm";

const rules = contractRules.forms.register;

const BLANK: Record<keyof RegisterFields, string> & { acceptTerms: boolean } = {
  login: "",
  password: "",
  email: "",
  firstName: "",
  lastName: "",
  ssn: "",
  address: "",
  phone: "",
  promocode: "",
  acceptTerms: false,
};

export function RegisterForm() {
  const { t } = useTranslation("auth");
  const tf = useTranslation("forms").t;
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [register, { isLoading }] = useRegisterMutation();
  const form = useForm(rules, BLANK);
  const { failure, submit, field, formMessage } = useAuthForm(form, isLoading);

  async function signUp(): Promise<AuthOutcome> {
    // acceptTerms stays in the form: registerPayload reads only the typed fields.
    const reply = await register(registerPayload(form.values as unknown as RegisterFields)).unwrap();
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
      <TextField {...field("firstName")} label={tf("labels.firstName")} autoComplete="given-name" maxLength={16} />
      <TextField {...field("lastName")} label={tf("labels.lastName")} autoComplete="family-name" maxLength={16} />
      <TextField {...field("ssn")} label={tf("labels.ssn")} autoComplete="off" maxLength={10} />
      <TextField {...field("address")} label={tf("labels.address")} autoComplete="street-address" maxLength={25} />
      <TextField {...field("phone")} type="tel" inputMode="numeric" label={tf("labels.phone")} autoComplete="tel" onKeyDown={digitsOnly} maxLength={12} />
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
