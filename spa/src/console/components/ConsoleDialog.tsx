import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { Dialog } from "../../components/Dialog";

interface ConsoleDialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId: string;
  /** Wide dialogs hold a diff and probes. */
  wide?: boolean;
  /** Without a close control (the sign-in over an ended session). */
  closable?: boolean;
}

/** A titled modal (the SPA's Dialog: focus kept inside, Escape and the overlay close it). */
export function ConsoleDialog({ title, onClose, children, testId, wide = false, closable = true }: ConsoleDialogProps) {
  const titleId = useId();
  const { t } = useTranslation();
  return (
    <Dialog labelledBy={titleId} onClose={closable ? onClose : () => undefined} testId={testId}
            className={wide ? "console-dialog console-dialog--wide" : "console-dialog"}>
      <div className="console-dialog__head">
        <h2 id={titleId}>{title}</h2>
        {closable && (
          <button type="button" className="button button--quiet" onClick={onClose} aria-label={t("actions.close")}>
            ×
          </button>
        )}
      </div>
      {children}
    </Dialog>
  );
}
