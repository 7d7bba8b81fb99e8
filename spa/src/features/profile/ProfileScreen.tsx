import { useState } from "react";
import { useTranslation } from "react-i18next";

import { useGetProfileQuery } from "../../lib/player/accountApi";
import { BankAccountsModal } from "./components/BankAccountsModal";
import { Documents } from "./components/Documents";
import { PlayMoneyReset } from "./components/PlayMoneyReset";
import { ProfileModal } from "./components/ProfileModal";
import "../../styles/history.css";
import "../../styles/profile.css";

/** Profile: the player's details, the update-profile modal, documents, bank accounts, play money. */
export function ProfileScreen() {
  const { t } = useTranslation("profile");
  const { data: profile } = useGetProfileQuery();
  const [modal, setModal] = useState<"profile" | "password" | "bank" | null>(null);

  return (
    <section className="screen">
      <h1 className="screen__title">{t("title")}</h1>
      <div className="table-scroll">
        <table data-testid="profile-details">
          <tbody>
            <tr>
              <th scope="row">{t("details.login")}</th>
              <td>{profile?.login}</td>
            </tr>
            <tr>
              <th scope="row">{t("details.email")}</th>
              <td data-testid="profile-email">{profile?.email}</td>
            </tr>
            <tr>
              <th scope="row">{t("details.phone")}</th>
              <td>{profile?.address?.phone}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <div className="profile-actions">
        <button type="button" className="button button--primary" onClick={() => setModal("profile")} data-testid="profile-edit">
          {t("actions.edit")}
        </button>
        <button type="button" className="button button--ghost" onClick={() => setModal("password")} data-testid="profile-password">
          {t("actions.password")}
        </button>
        <button type="button" className="button button--ghost" onClick={() => setModal("bank")} data-testid="profile-bank">
          {t("actions.bank")}
        </button>
        <PlayMoneyReset />
      </div>
      <Documents />
      {(modal === "profile" || modal === "password") && profile && (
        <ProfileModal profile={profile} tab={modal} onTab={setModal} onClose={() => setModal(null)} />
      )}
      {modal === "bank" && <BankAccountsModal onClose={() => setModal(null)} />}
    </section>
  );
}
