import { useTranslation } from "react-i18next";

import type { Profile } from "../../../api/contracts.gen";
import { Modal } from "./Modal";
import { PasswordForm } from "./PasswordForm";
import { ProfileForm } from "./ProfileForm";

/** The update-profile modal: the details form and the password form, one tab each. */
export function ProfileModal({ profile, tab, onTab, onClose }: { profile: Profile; tab: "profile" | "password"; onTab: (tab: "profile" | "password") => void; onClose: () => void }) {
  const { t } = useTranslation("profile");
  return (
    <Modal title={t("modal.title")} onClose={onClose} testId="profile-modal">
      <div className="tabs" role="tablist">
        <button type="button" role="tab" className="provider-chip" aria-selected={tab === "profile"} onClick={() => onTab("profile")}>
          {t("modal.profileTab")}
        </button>
        <button type="button" role="tab" className="provider-chip" aria-selected={tab === "password"} onClick={() => onTab("password")} data-testid="password-tab">
          {t("modal.passwordTab")}
        </button>
      </div>
      {tab === "profile" ? <ProfileForm profile={profile} onDone={onClose} /> : <PasswordForm onDone={onClose} />}
    </Modal>
  );
}
