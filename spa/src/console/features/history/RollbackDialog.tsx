import { useEffect, useEffectEvent } from "react";
import { useTranslation } from "react-i18next";

import type { ConfigVersion } from "../../api/types";
import { ConsoleDialog } from "../../components/ConsoleDialog";
import { WriteSteps } from "../../components/WriteSteps";
import { shortVersion, useFormats } from "../../lib/format";
import { useWriteFlow } from "../../lib/writeFlow";
import { useApplyRollbackMutation, usePreviewRollbackMutation } from "./historyApi";

interface RollbackDialogProps {
  to: ConfigVersion;
  /** The version current when the operator chose to roll back. */
  baseVersion: string;
  onClose: () => void;
}

/** Back to an earlier version's overrides in one step: previewed and probed first, then a reason. */
export function RollbackDialog({ to, baseVersion, onClose }: RollbackDialogProps) {
  const { t } = useTranslation("history");
  const format = useFormats();
  const [previewRollback] = usePreviewRollbackMutation();
  const [applyRollback] = useApplyRollbackMutation();
  const flow = useWriteFlow(baseVersion, {
    preview: (base) => previewRollback({ to: to.version, baseVersion: base }),
    apply: (base, reason, override) => applyRollback({ to: to.version, baseVersion: base, reason, ...(override && { override }) }),
  });
  const { preview, problem, busy, applied } = flow;
  const previewNow = useEffectEvent(() => void flow.runPreview());
  const waiting = preview === null && problem === null && busy === null && applied === null;

  // The preview is asked for as the dialog opens, and again after starting from a newer version.
  useEffect(() => {
    if (waiting) previewNow();
  }, [waiting, flow.baseVersion]);

  return (
    <ConsoleDialog title={t("rollbackTitle", { version: shortVersion(to.version) })} onClose={onClose} wide
                   testId="rollback-dialog">
      <p className="muted">{t("rollbackIntro", { when: format.dateTime(to.at), who: to.who ?? "–" })}</p>
      {busy === "preview" && <p role="status">{t("previewing")}</p>}
      <WriteSteps flow={flow} onClose={onClose} />
    </ConsoleDialog>
  );
}
