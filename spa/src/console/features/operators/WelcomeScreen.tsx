import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import { DoorCard } from "../../components/DoorCard";
import { TextField } from "../../components/TextField";
import { useSignInMutation } from "../../lib/session/sessionApi";
import { useFieldText } from "./fieldText";
import { useSetFirstPasswordMutation } from "./operatorsApi";

/** The link's token, taken from the fragment once and wiped from the address bar and the history. */
function takeToken(): string {
  const token = window.location.hash.replace(/^#/, "");
  if (token) window.history.replaceState(window.history.state, "", window.location.pathname);
  return token;
}

/** A one-time sign-in link's page: the new operator chooses their password, then is signed in. */
export function WelcomeScreen() {
  const { t } = useTranslation("operators");
  const fieldText = useFieldText();
  const navigate = useNavigate();
  const [token] = useState(takeToken);
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  const [setFirst, { isLoading }] = useSetFirstPasswordMutation();
  const [signIn] = useSignInMutation();

  function refuse(field: string, code: string) {
    setProblem({ ...toConsoleError(undefined), status: 422, code: "INVALID", fields: [{ field, code, message: "" }] });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password !== again) return refuse("again", "PASSWORDS_DIFFER");
    const answer = await setFirst({ token, password });
    if (answer.error) return setProblem(toConsoleError(answer.error));
    const signedIn = await signIn({ name: answer.data.name, password });
    if (signedIn.error) return setProblem(toConsoleError(signedIn.error));
    void navigate("/", { replace: true });
  }

  const linkErrors = errorsOf(problem, "token").map(fieldText);
  return (
    <DoorCard title={t("welcome.title")} testId="welcome-screen">
      <p className="muted">{t("welcome.intro")}</p>
      {(!token || linkErrors.length > 0) && (
        <p className="notice notice--error" role="alert" data-testid="link-error">
          {linkErrors.length ? linkErrors.join(" ") : t("fields.LINK_INVALID")}
        </p>
      )}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField name="password" type="password" label={t("welcome.password")} value={password} onValue={setPassword}
                   autoComplete="new-password" hint={t("welcome.hint")} errors={errorsOf(problem, "password").map(fieldText)} />
        <TextField name="again" type="password" label={t("welcome.again")} value={again} onValue={setAgain}
                   autoComplete="new-password" errors={errorsOf(problem, "again").map(fieldText)} />
        <button type="submit" className="button button--primary" disabled={isLoading || !token} data-testid="welcome-submit">
          {t("welcome.submit")}
        </button>
      </form>
    </DoorCard>
  );
}
