import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { useAppDispatch, useAppSelector } from "../lib/store/hooks";
import { closeNotice, selectNotice } from "../lib/store/uiSlice";
import { Dialog } from "./Dialog";

/** Spec: the notification popup closes by itself after 4.5 s. */
export const NOTIFICATION_MS = 4500;

/** The shell's message popups: session expired, messages with OK, self-closing notifications. */
export function NoticeHost() {
  const { t } = useTranslation("shell");
  const notice = useAppSelector(selectNotice);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const titleId = useId();

  useEffect(() => {
    const after = notice?.kind === "notification" ? NOTIFICATION_MS : notice?.kind === "message" ? notice.hideAfterMs : undefined;
    if (after === undefined) return;
    const timer = setTimeout(() => dispatch(closeNotice()), after);
    return () => clearTimeout(timer);
  }, [notice, dispatch]);

  if (!notice) return null;

  if (notice.kind === "sessionExpired") {
    const ok = () => {
      dispatch(closeNotice());
      void navigate("/home", { replace: true });
    };
    return (
      <Dialog labelledBy={titleId} onClose={ok} role="alertdialog" className="notice notice--error" testId="notice-popup" kind="sessionExpired">
        <h2 id={titleId} className="notice__title">
          {t("notice.sessionExpiredTitle")}
        </h2>
        <p className="notice__text">{t("notice.sessionExpired")}</p>
        <button type="button" className="button button--primary" data-testid="notice-ok" data-autofocus onClick={ok}>
          {t("notice.ok")}
        </button>
      </Dialog>
    );
  }

  const close = () => dispatch(closeNotice());
  return (
    <Dialog
      labelledBy={titleId}
      onClose={close}
      role={notice.variant === "error" ? "alertdialog" : "dialog"}
      className={`notice notice--${notice.variant}`}
      testId="notice-popup"
      kind={notice.kind}
    >
      <h2 id={titleId} className="notice__title">
        {notice.title ?? t(`notice.${notice.variant}Title`)}
      </h2>
      <p className="notice__text">{notice.text}</p>
      <button type="button" className="button button--primary" data-testid="notice-ok" data-autofocus onClick={close}>
        {t("notice.ok")}
      </button>
    </Dialog>
  );
}
