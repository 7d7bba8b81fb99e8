import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import type { LoginResponse } from "../../api/contracts.gen";
import { DEFAULT_FAILURE } from "../../api/errors";
import { contractRules } from "../../api/rules.gen";
import { TextField } from "../../forms/Field";
import { lettersAndDigitsOnly } from "../../forms/keys";
import { useForm } from "../../forms/useForm";
import { useAppDispatch } from "../../lib/store/hooks";
import { closeAuth, switchAuthTab } from "../../lib/store/uiSlice";
import { AuthFailure } from "./AuthFailure";
import { useLoginMutation } from "./authApi";
import { loginErrorKey } from "./loginErrors";
import { useAuthForm, type AuthOutcome } from "./useAuthForm";

/** Remember-me keeps the login name only (never the password): the BFF keeps the session. */
export const REMEMBERED_LOGIN_KEY = "rrrUserName";

const rules = contractRules.forms.login;

/** Logged when a login answer is not the platform's envelope (the answer itself is not: it may
 * carry what the player typed). */
export const UNEXPECTED_LOGIN_ANSWER = "login: the answer is not a platform reply ({ success, ... })";

/** Whether a login answer has the platform's shape: an object whose `success` is a boolean. */
function isPlatformReply(reply: unknown): reply is LoginResponse {
  return typeof reply === "object" && reply !== null && typeof (reply as { success?: unknown }).success === "boolean";
}

export function LoginForm() {
  const { t } = useTranslation("auth");
  const tf = useTranslation("forms").t;
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [login, { isLoading }] = useLoginMutation();
  const remembered = localStorage.getItem(REMEMBERED_LOGIN_KEY) ?? "";
  const form = useForm(rules, { login: remembered, password: "" });
  const [rememberMe, setRememberMe] = useState(true);
  const { failure, submit, field, formMessage } = useAuthForm(form, isLoading);

  async function signIn(): Promise<AuthOutcome> {
    const name = String(form.values.login);
    const reply: unknown = await login({ login: name, password: String(form.values.password), rememberMe }).unwrap();
    if (!isPlatformReply(reply)) {
      console.error(UNEXPECTED_LOGIN_ANSWER);
      return { ok: false, message: formMessage(DEFAULT_FAILURE) };
    }
    if (!reply.success) {
      const description = reply.description ?? reply.message ?? "";
      const key = loginErrorKey(description);
      return { ok: false, message: key ? t(key) : description || t("errors.loginFailed") };
    }
    if (rememberMe) localStorage.setItem(REMEMBERED_LOGIN_KEY, name);
    else localStorage.removeItem(REMEMBERED_LOGIN_KEY);
    dispatch(closeAuth());
    void navigate("/home");
    return { ok: true };
  }

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void submit(event, signIn)} aria-labelledby="auth-title-login">
      <h2 id="auth-title-login" className="auth-form__title">
        {t("login.title")}
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
        autoComplete="current-password"
        hint={formMessage(rules.password.hint)}
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
      <AuthFailure text={failure} />
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
