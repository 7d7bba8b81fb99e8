import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { Dialog } from "../../../components/Dialog";
import { Icon } from "../../../components/icons/Icon";

/** A profile modal: its title, a close button, and the content. */
export function Modal({ title, onClose, testId, children }: { title: string; onClose: () => void; testId: string; children: ReactNode }) {
  const { t } = useTranslation("profile");
  const titleId = useId();
  return (
    <Dialog labelledBy={titleId} onClose={onClose} className="profile-modal" testId={testId}>
      <header className="dialog__head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t("actions.close")}>
          <Icon name="close" />
        </button>
      </header>
      {children}
    </Dialog>
  );
}
