import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import { ErrorNotice } from "../../components/ErrorNotice";
import { TextField } from "../../components/TextField";
import { useErrorText } from "../../lib/errorText";
import { useSignInMutation } from "../../lib/session/sessionApi";

interface SignInFormProps {
  /** The name to start with (signing in again after the session ended). */
  name?: string;
  onSignedIn?: () => void;
}

/** Name and password; the password lives only in this form's state and the one request. */
export function SignInForm({ name: initialName = "", onSignedIn }: SignInFormProps) {
  const { t } = useTranslation("signin");
  const text = useErrorText();
  const [name, setName] = useState(initialName);
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  const [signIn, { isLoading }] = useSignInMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = [
      ...(name.trim() ? [] : [{ field: "name", code: "REQUIRED", message: "" }]),
      ...(password ? [] : [{ field: "password", code: "REQUIRED", message: "" }]),
    ];
    if (missing.length > 0) {
      setProblem({ ...toConsoleError(undefined), status: 422, fields: missing });
      return;
    }
    const answer = await signIn({ name: name.trim(), password });
    setPassword("");
    if ("error" in answer) {
      setProblem(toConsoleError(answer.error));
      return;
    }
    setProblem(null);
    onSignedIn?.();
  }

  const fieldErrors = (field: string) => errorsOf(problem, field).map(text.field);
  return (
    <form className="signin-form" onSubmit={(event) => void submit(event)} noValidate data-testid="signin-form">
      <TextField name="name" label={t("name")} value={name} onValue={setName} errors={fieldErrors("name")}
                 autoComplete="username" autoCapitalize="none" spellCheck={false} data-autofocus={initialName ? undefined : true} />
      <TextField name="password" type="password" label={t("password")} value={password} onValue={setPassword}
                 errors={fieldErrors("password")} autoComplete="current-password" data-autofocus={initialName ? true : undefined} />
      <ErrorNotice error={problem} shownFields={["name", "password"]} testId="signin-error" />
      <button type="submit" className="button button--primary" disabled={isLoading} data-testid="signin-submit">
        {isLoading ? t("signingIn") : t("submit")}
      </button>
    </form>
  );
}
