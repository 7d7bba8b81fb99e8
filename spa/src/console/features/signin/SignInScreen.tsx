import { useTranslation } from "react-i18next";

import { LanguagePicker } from "../../components/LanguagePicker";
import { SignInForm } from "./SignInForm";

/** The console's door: nothing else is shown without a session. */
export function SignInScreen({ reason }: { reason: string | null }) {
  const { t } = useTranslation("signin");
  return (
    <main className="signin" data-testid="signin-screen">
      <div className="signin__card">
        <div className="signin__head">
          <h1>{t("title")}</h1>
          <LanguagePicker />
        </div>
        <p className="muted">{t("intro")}</p>
        {reason === "SESSION_EXPIRED" && (
          <p className="notice notice--warn" role="status">
            {t("expired")}
          </p>
        )}
        <SignInForm />
      </div>
    </main>
  );
}
