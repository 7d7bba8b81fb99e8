import { useState } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import { ConsoleDialog } from "../../components/ConsoleDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { ReasonField } from "../../components/ReasonField";
import { useErrorText } from "../../lib/errorText";
import { reasonValid } from "../../lib/rules";
import { useActOnCanaryMutation } from "./canaryApi";
import type { Canary, CanaryAction } from "./types";

const ACTIONS: CanaryAction[] = ["pause", "resume", "promote", "abort"];

/** Whether an action can be taken in the canary's state: none once it has ended. */
function possible(canary: Canary, action: CanaryAction): boolean {
  if (action === "pause") return canary.state === "running";
  if (action === "resume") return canary.state === "paused";
  return canary.state === "running" || canary.state === "paused";
}

/** Pause, resume, promote now, abort: each asks why (the trail keeps it), each disabled once the canary has ended. */
export function CanaryActions({ canary }: { canary: Canary }) {
  const { t } = useTranslation("canary");
  const [open, setOpen] = useState<CanaryAction | null>(null);
  return (
    <div className="canary-actions" data-testid="canary-actions">
      {ACTIONS.map((action) => (
        <button key={action} type="button" className={action === "abort" ? "button button--danger" : "button"}
                disabled={!possible(canary, action)} onClick={() => setOpen(action)} data-testid={`canary-${action}`}>
          {t(`actions.${action}.button`)}
        </button>
      ))}
      {open && <ActionDialog canary={canary} action={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

function ActionDialog({ canary, action, onClose }: { canary: Canary; action: CanaryAction; onClose: () => void }) {
  const { t } = useTranslation("canary");
  const common = useTranslation().t;
  const text = useErrorText();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  const [act, { isLoading }] = useActOnCanaryMutation();

  async function submit() {
    if (!reasonValid(reason)) {
      setProblem({ ...toConsoleError(undefined), status: 422, code: "INVALID", fields: [{ field: "reason", code: "REASON_TOO_SHORT", message: "" }] });
      return;
    }
    const answer = await act({ id: canary.id, action, reason: reason.trim() });
    if (answer.error) setProblem(toConsoleError(answer.error));
    else onClose();
  }

  return (
    <ConsoleDialog title={t(`actions.${action}.title`, { skin: canary.skin, upstream: canary.upstream })} onClose={onClose}
                   testId="canary-action-dialog">
      <form onSubmit={(event) => { event.preventDefault(); void submit(); }} noValidate>
        <p className={action === "abort" || action === "promote" ? "notice notice--warn" : "muted"}>{t(`actions.${action}.what`)}</p>
        <ReasonField value={reason} onValue={setReason} errors={errorsOf(problem, "reason").map(text.field)} />
        <ErrorNotice error={problem} shownFields={["reason"]} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>{common("actions.cancel")}</button>
          <button type="submit" className={action === "abort" ? "button button--danger" : "button button--primary"}
                  disabled={isLoading} data-testid="canary-action-confirm">
            {t(`actions.${action}.confirm`)}
          </button>
        </div>
      </form>
    </ConsoleDialog>
  );
}
