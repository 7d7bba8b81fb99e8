import { useId, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";

import { useAppDispatch, useAppSelector } from "../../lib/store/hooks";
import { closeAuth, selectAuth, switchAuthTab, type AuthTab } from "../../lib/store/uiSlice";
import { Dialog } from "../../components/Dialog";
import { Icon } from "../../components/icons/Icon";
import "../../styles/auth.css";
import { ForgotPasswordForm } from "./ForgotPasswordForm";
import { LoginForm } from "./LoginForm";
import { RegisterForm } from "./RegisterForm";

const TABS: { tab: AuthTab; label: "tabs.login" | "tabs.forgot" | "tabs.register" }[] = [
  { tab: "login", label: "tabs.login" },
  { tab: "forgot", label: "tabs.forgot" },
  { tab: "register", label: "tabs.register" },
];

/** The login popup: Login, Forgot password and Join Us tabs, at most 500px wide. */
export default function AuthPopup() {
  const { t } = useTranslation("auth");
  const dispatch = useAppDispatch();
  const { tab } = useAppSelector(selectAuth);
  const titleId = useId();
  const close = () => dispatch(closeAuth());

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const index = TABS.findIndex((entry) => entry.tab === tab);
    const next = TABS[(index + (event.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length]!;
    dispatch(switchAuthTab(next.tab));
    document.getElementById(`auth-tab-${next.tab}`)?.focus();
  }

  return (
    <Dialog labelledBy={titleId} onClose={close} className="auth-popup" testId="auth-popup">
      <h2 id={titleId} className="visually-hidden">
        {t("popupTitle")}
      </h2>
      <button type="button" className="icon-button auth-popup__close" data-testid="auth-close" aria-label={t("close")} onClick={close}>
        <Icon name="close" />
      </button>
      <div className="auth-popup__tabs" role="tablist" aria-label={t("popupTitle")}>
        {TABS.map((entry) => (
          <button
            key={entry.tab}
            id={`auth-tab-${entry.tab}`}
            type="button"
            role="tab"
            className="auth-popup__tab"
            aria-selected={tab === entry.tab}
            aria-controls="auth-panel"
            tabIndex={tab === entry.tab ? 0 : -1}
            data-testid={`auth-tab-${entry.tab}`}
            onClick={() => dispatch(switchAuthTab(entry.tab))}
            onKeyDown={onTabKey}
          >
            {t(entry.label)}
          </button>
        ))}
      </div>
      <div id="auth-panel" role="tabpanel" aria-labelledby={`auth-tab-${tab}`} className="auth-popup__panel">
        {tab === "login" && <LoginForm />}
        {tab === "forgot" && <ForgotPasswordForm />}
        {tab === "register" && <RegisterForm />}
      </div>
    </Dialog>
  );
}
