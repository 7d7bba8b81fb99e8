import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import type { Skin } from "../../api/types";
import { ConsoleDialog } from "../../components/ConsoleDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { ReasonField } from "../../components/ReasonField";
import { useErrorText } from "../../lib/errorText";
import { reasonValid } from "../../lib/rules";

export interface Done {
  done: string;
  tone?: "ok" | "warn";
}

interface ConfirmedActionProps {
  /** Its texts (actions.json: title, what will happen, the confirming button) and test id. */
  kind: "purge" | "revoke";
  skin: Skin;
  /** Fields of the action's own above the reason (the player's login). */
  fields?: ReactNode;
  /** The action's own checks, by field, before it is sent (`{login: "REQUIRED"}`). */
  check?: () => ConsoleError["fields"];
  /** Sends it; the answer's text when done, and its tone (`warn`: done, but not what was meant: no session found). */
  run: (reason: string) => Promise<Done | { error: ConsoleError }>;
  onClose: () => void;
}

/** An action that cannot be undone (purge, revoke): said plainly, confirmed, with a reason for the audit trail. */
export function ConfirmedAction({ kind, skin, fields, check, run, onClose }: ConfirmedActionProps) {
  const { t } = useTranslation();
  const texts = useTranslation("actions").t;
  const text = useErrorText();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const refused = [
      ...(check?.() ?? []),
      ...(reasonValid(reason) ? [] : [{ field: "reason", code: "REASON_TOO_SHORT", message: "" }]),
    ];
    if (refused.length > 0) {
      setProblem({ ...toConsoleError(undefined), status: 422, code: "INVALID", fields: refused });
      return;
    }
    setBusy(true);
    const answer = await run(reason.trim());
    setBusy(false);
    if ("error" in answer) setProblem(answer.error);
    else {
      setProblem(null);
      setDone(answer);
    }
  }

  return (
    <ConsoleDialog title={texts(`${kind}.title`, { skin: skin.name })} onClose={onClose} testId={`${kind}-dialog`}>
      {done ? (
        <>
          <p className={`notice notice--${done.tone ?? "ok"}`} role="status" data-testid="action-done"
             data-tone={done.tone ?? "ok"}>
            {done.done}
          </p>
          <div className="dialog-actions">
            <button type="button" className="button button--primary" onClick={onClose} data-autofocus>
              {t("write.done")}
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <p className="notice notice--warn">{texts(`${kind}.warning`, { skin: skin.name })}</p>
          {fields}
          <ReasonField value={reason} onValue={setReason} errors={errorsOf(problem, "reason").map(text.field)} />
          <ErrorNotice error={problem} shownFields={["reason", "login"]} />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              {t("actions.cancel")}
            </button>
            <button type="submit" className="button button--danger" disabled={busy} data-testid="action-confirm">
              {texts(`${kind}.confirm`)}
            </button>
          </div>
        </form>
      )}
    </ConsoleDialog>
  );
}
