import { useTranslation } from "react-i18next";

import { DoorCard } from "../../components/DoorCard";
import { SignInForm } from "./SignInForm";

/** The console's door: nothing else is shown without a session. */
export function SignInScreen({ reason }: { reason: string | null }) {
  const { t } = useTranslation("signin");
  return (
    <DoorCard title={t("title")} testId="signin-screen">
      <p className="muted">{t("intro")}</p>
      {reason === "SESSION_EXPIRED" && (
        <p className="notice notice--warn" role="status">
          {t("expired")}
        </p>
      )}
      <SignInForm />
    </DoorCard>
  );
}
