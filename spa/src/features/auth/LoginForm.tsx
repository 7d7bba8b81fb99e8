import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { contractRules } from "../../api/rules.gen";
import { toAppError } from "../../api/errors";
import { useAppDispatch } from "../../lib/store/hooks";
import { closeAuth, switchAuthTab } from "../../lib/store/uiSlice";
import { TextField } from "../../forms/Field";
import { lettersAndDigitsOnly } from "../../forms/keys";
import { useForm, useFormMessage } from "../../forms/useForm";
import { useLoginMutation } from "./authApi";
import { loginErrorKey } from "./loginErrors";

/** Remember-me keeps the login name only (never the password): the BFF keeps the session. */
export const REMEMBERED_LOGIN_KEY = "rrrUserName";

const rules = contractRules.forms.login;

export function LoginForm() {
  const { t } = useTranslation("auth");
  const tf = useTranslation("forms").t;
  const formMessage = useFormMessage();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [login, { isLoading }] = useLoginMutation();
  const remembered = localStorage.getItem(REMEMBERED_LOGIN_KEY) ?? "";
  const form = useForm(rules, { login: remembered, password: "" });
  const [rememberMe, setRememberMe] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    // Enter submits only when both fields are valid; a second submit waits for the first.
    if (!form.valid || isLoading) return;
    const name = String(form.values.login);
    try {
      const reply = await login({ login: name, password: String(form.values.password), rememberMe }).unwrap();
      if (!reply.success) {
        const description = reply.description ?? reply.message ?? "";
        const key = loginErrorKey(description);
        setFailure(key ? t(key) : description || t("errors.loginFailed"));
        return;
      }
      if (rememberMe) localStorage.setItem(REMEMBERED_LOGIN_KEY, name);
      else localStorage.removeItem(REMEMBERED_LOGIN_KEY);
      dispatch(closeAuth());
      void navigate("/home");
    } catch (error) {
      setFailure(formMessage(toAppError(error as Parameters<typeof toAppError>[0]).message));
    }
  }

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="auth-title-login">
      <h2 id="auth-title-login" className="auth-form__title">
        {t("login.title")}
      </h2>
      <TextField
        name="login"
        label={tf("labels.login")}
        autoComplete="username"
        value={String(form.values.login)}
        error={form.errors.login}
        hint={formMessage(rules.login.hint)}
        onValue={(value) => form.set("login", value)}
        onKeyDown={lettersAndDigitsOnly}
        onBlur={() => form.touch("login")}
        onFocus={() => setFailure(null)}
        maxLength={15}
        data-autofocus
      />
      <TextField
        name="password"
        type="password"
        label={tf("labels.password")}
        autoComplete="current-password"
        value={String(form.values.password)}
        error={form.errors.password}
        hint={formMessage(rules.password.hint)}
        onValue={(value) => form.set("password", value)}
        onBlur={() => form.touch("password")}
        onFocus={() => setFailure(null)}
        maxLength={15}
      />
      <div className="auth-form__row">
        <label className="checkbox">
          <input type="checkbox" name="rememberMe" checked={rememberMe} onChange={(event) => setRememberMe(event.target.checked)} />
          <span>{t("login.rememberMe")}</span>
        </label>
        <button type="button" className="link-button" onClick={() => dispatch(switchAuthTab("forgot"))}>
          {t("login.forgot")}
        </button>
      </div>
      {failure && (
        <p className="auth-form__error" role="alert" data-testid="auth-error">
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary button--block" data-testid="login-submit" disabled={isLoading} aria-busy={isLoading}>
        {isLoading ? t("login.signingIn") : t("login.submit")}
      </button>
      <p className="auth-form__switch">
        {t("login.noAccount")}{" "}
        <button type="button" className="link-button" onClick={() => dispatch(switchAuthTab("register"))}>
          {t("tabs.register")}
        </button>
      </p>
    </form>
  );
}
