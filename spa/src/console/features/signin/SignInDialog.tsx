import { useTranslation } from "react-i18next";

import { ConsoleDialog } from "../../components/ConsoleDialog";
import { SignInForm } from "./SignInForm";

interface SignInDialogProps {
  name: string;
  onSignedIn: () => void;
}

/** Over the page when the session ended mid-work: the page underneath keeps its forms as they were. */
export function SignInDialog({ name, onSignedIn }: SignInDialogProps) {
  const { t } = useTranslation("signin");
  return (
    <ConsoleDialog title={t("againTitle")} onClose={() => undefined} closable={false} testId="signin-dialog">
      <p>{t("againIntro")}</p>
      <SignInForm name={name} onSignedIn={onSignedIn} />
    </ConsoleDialog>
  );
}
