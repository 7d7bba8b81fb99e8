import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { contractRules } from "../../api/rules.gen";
import type { Profile } from "../../api/contracts.gen";
import { Dialog } from "../../components/Dialog";
import { Icon } from "../../components/icons/Icon";
import { useGetProfileQuery } from "../../lib/player/accountApi";
import { useExclusiveCall } from "../../api/useExclusiveCall";
import {
  useAddBankAccountMutation,
  useDeleteBankAccountsMutation,
  useGetBankAccountsQuery,
  useGetDocumentsQuery,
  useResetPlayMoneyMutation,
  useUpdatePasswordMutation,
  useUpdateProfileMutation,
} from "./profileApi";
import {
  ACCEPTED_TYPES,
  DOCUMENT_CODES,
  DOCUMENT_NAMES,
  MAX_UPLOAD_BYTES,
  UploadError,
  uploadDocument,
  type DocumentKind,
} from "./upload";
import { FormError } from "../../forms/FormError";
import { FormFields, type FieldSpec } from "../../forms/FormFields";
import { digitsOnly } from "../../forms/keys";
import { useForm, useFormMessage } from "../../forms/useForm";
import { SESSION_EXPIRED } from "../../api/errors";
import { useAppDispatch } from "../../lib/store/hooks";
import { showNotice } from "../../lib/store/uiSlice";
import "../../styles/history.css";
import "../../styles/profile.css";

/** Section 4: the password error clears after 3 s. */
export const PASSWORD_ERROR_MS = 3000;
/** The platform's refusal of a new password equal to the old one (two spaces, as it sends it). */
const SAME_PASSWORD = "Old Password and  New Password Cannot be the same";

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

function Modal({ title, onClose, testId, children }: { title: string; onClose: () => void; testId: string; children: ReactNode }) {
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

function ProfileModal({ profile, tab, onTab, onClose }: { profile: Profile; tab: "profile" | "password"; onTab: (tab: "profile" | "password") => void; onClose: () => void }) {
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

function ProfileForm({ profile, onDone }: { profile: Profile; onDone: () => void }) {
  const { t } = useTranslation("profile");
  const tf = useTranslation("forms").t;
  const formMessage = useFormMessage();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [update] = useUpdateProfileMutation();
  const { run, busy } = useExclusiveCall(update);
  const form = useForm(contractRules.forms.profileUpdate, {
    nickname: profile.nickname || profile.login || "",
    email: profile.email ?? "",
    firstName: profile.firstName ?? "",
    lastName: profile.lastName ?? "",
    city: profile.address?.city ?? "",
    phone: profile.address?.phone ?? "",
    country: profile.address?.country ?? "",
  });
  const [failure, setFailure] = useState<string | null>(null);
  const fields: FieldSpec<keyof typeof form.values>[] = [
    { name: "nickname", label: tf("labels.login"), readOnly: true },
    { name: "email", label: tf("labels.email"), type: "email", autoComplete: "email" },
    { name: "firstName", label: t("fields.firstName"), autoComplete: "given-name", maxLength: 16 },
    { name: "lastName", label: t("fields.lastName"), autoComplete: "family-name", maxLength: 16 },
    { name: "phone", label: t("details.phone"), type: "tel", inputMode: "numeric", autoComplete: "tel", keys: digitsOnly, maxLength: 12 },
    { name: "city", label: t("fields.city"), autoComplete: "address-level2" },
    { name: "country", label: t("fields.country"), autoComplete: "country-name" },
  ];

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid) return;
    const v = form.values;
    const outcome = await run({
      nickname: String(v.nickname),
      email: String(v.email).trim().toLowerCase(),
      firstName: String(v.firstName).trim(),
      lastName: String(v.lastName).trim(),
      address: { city: String(v.city).trim(), phone: String(v.phone), country: String(v.country).trim() },
    });
    if (!outcome) return;
    if (!outcome.ok) {
      if (outcome.code !== SESSION_EXPIRED) setFailure(formMessage(outcome.message));
      return;
    }
    onDone();
    dispatch(showNotice({ kind: "message", text: outcome.data.description || t("modal.saved"), variant: "success" }));
    void navigate("/profile");
  }

  return (
    <form className="profile-form" noValidate onSubmit={(event) => void submit(event)}>
      <FormFields form={form} fields={fields} onFocus={() => setFailure(null)} />
      <FormError text={failure} />
      <button type="submit" className="button button--primary" disabled={!form.valid || busy} data-testid="profile-save">
        {busy ? t("actions.saving") : t("actions.save")}
      </button>
    </form>
  );
}

function PasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("profile");
  const formMessage = useFormMessage();
  const dispatch = useAppDispatch();
  const [updatePassword] = useUpdatePasswordMutation();
  const { run, busy } = useExclusiveCall(updatePassword);
  const form = useForm(contractRules.forms.passwordChange, { oldPassword: "", newPassword: "" });
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!failure) return;
    const timer = setTimeout(() => setFailure(null), PASSWORD_ERROR_MS);
    return () => clearTimeout(timer);
  }, [failure]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid) return;
    const outcome = await run({ oldPassword: String(form.values.oldPassword), newPassword: String(form.values.newPassword) });
    if (!outcome) return;
    if (!outcome.ok) {
      if (outcome.code === SESSION_EXPIRED) return;
      // 'Invalid argument' means the old password was wrong; the same-password refusal is translated.
      if (outcome.message === "Invalid argument") setFailure(t("password.messages.invalidOld"));
      else if (outcome.message === SAME_PASSWORD) setFailure(t("password.messages.same"));
      else setFailure(formMessage(outcome.message));
      return;
    }
    onDone();
    dispatch(showNotice({ kind: "message", text: t("password.messages.success"), variant: "success" }));
  }

  // Printable ASCII only (section 5); letters and digits are what the rule accepts.
  const printable = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key.length === 1 && !/^[\x20-\x7e]$/.test(event.key)) event.preventDefault();
  };

  return (
    <form className="profile-form" noValidate onSubmit={(event) => void submit(event)}>
      <FormFields
        form={form}
        onFocus={() => setFailure(null)}
        fields={[
          { name: "oldPassword", label: t("password.old"), type: "password", autoComplete: "current-password", maxLength: 15, keys: printable },
          { name: "newPassword", label: t("password.new"), type: "password", autoComplete: "new-password", maxLength: 15, keys: printable, hint: t("password.hint") },
        ]}
      />
      <FormError text={failure} testId="password-error" />
      <button type="submit" className="button button--primary" disabled={!form.valid || busy} data-testid="password-save">
        {t("password.submit")}
      </button>
    </form>
  );
}

type BankField = "bankAccountNumber" | "bankName" | "accountBranchName" | "nameOnAccount" | "accountType" | "personalNumber";
const EMPTY_BANK: Record<BankField, string> = { bankAccountNumber: "", bankName: "", accountBranchName: "", nameOnAccount: "", accountType: "", personalNumber: "" };

/** The bank account modal (id accountDetails): add an account, list them, delete one. */
function BankAccountsModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation("profile");
  const formMessage = useFormMessage();
  const dispatch = useAppDispatch();
  const accounts = useGetBankAccountsQuery();
  const [add] = useAddBankAccountMutation();
  const [remove] = useDeleteBankAccountsMutation();
  const adding = useExclusiveCall(add);
  const deleting = useExclusiveCall(remove);
  const form = useForm(contractRules.forms.bankAccount, EMPTY_BANK);
  const [failure, setFailure] = useState<string | null>(null);
  const list = accounts.data?.bankAccountInfos ?? [];
  const letters = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key.length === 1 && !/^[A-Za-z ]$/.test(event.key)) event.preventDefault();
  };
  const fields: FieldSpec<BankField>[] = [
    { name: "bankAccountNumber", label: t("bank.number"), inputMode: "numeric", keys: digitsOnly, maxLength: 18 },
    { name: "bankName", label: t("bank.name"), keys: letters },
    { name: "accountBranchName", label: t("bank.branch"), keys: letters },
    { name: "nameOnAccount", label: t("bank.holder"), keys: letters, autoComplete: "name" },
    { name: "accountType", label: t("bank.type"), keys: letters },
    { name: "personalNumber", label: t("bank.ifsc"), maxLength: 11, upper: true },
  ];

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid) return;
    const body = Object.fromEntries(Object.entries(form.values).map(([k, v]) => [k, String(v).trim()])) as Record<BankField, string>;
    const outcome = await adding.run(body);
    if (!outcome) return;
    if (!outcome.ok) {
      if (outcome.code !== SESSION_EXPIRED) setFailure(formMessage(outcome.message));
      return;
    }
    form.reset();
    dispatch(showNotice({ kind: "message", text: outcome.data.description || t("bank.added"), variant: "success" }));
  }

  async function drop(id: string) {
    const outcome = await deleting.run({ bankEncodedIDs: [id] });
    if (outcome && !outcome.ok && outcome.code !== SESSION_EXPIRED) setFailure(formMessage(outcome.message));
  }

  return (
    <Modal title={t("bank.title")} onClose={onClose} testId="bank-modal">
      <div id="accountDetails" className="bank-accounts">
        {list.length === 0 ? (
          <p className="screen__soon">{t("bank.none")}</p>
        ) : (
          <ul className="bank-accounts__list" data-testid="bank-list">
            {list.map((account) => (
              <li key={account.bankEncodedID}>
                <span>
                  {account.bankName} · ****{account.bankAccountNumber.slice(-4)} · {account.nameOnAccount}
                </span>
                <button type="button" className="link-button" disabled={deleting.busy} onClick={() => void drop(account.bankEncodedID)}>
                  {t("bank.delete")}
                </button>
              </li>
            ))}
          </ul>
        )}
        <form className="profile-form" noValidate onSubmit={(event) => void submit(event)}>
          <FormFields form={form} fields={fields} onFocus={() => setFailure(null)} />
          <FormError text={failure} />
          <button type="submit" className="button button--primary" disabled={!form.valid || adding.busy} data-testid="bank-add">
            {t("bank.add")}
          </button>
        </form>
      </div>
    </Modal>
  );
}

/** Back to the starting play money; the player stays on /profile. */
function PlayMoneyReset() {
  const { t } = useTranslation("profile");
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [reset] = useResetPlayMoneyMutation();
  const { run, busy } = useExclusiveCall(reset);
  async function click() {
    const outcome = await run({});
    if (!outcome) return;
    if (!outcome.ok) {
      if (outcome.code !== SESSION_EXPIRED) dispatch(showNotice({ kind: "message", text: outcome.message, variant: "error" }));
      return;
    }
    dispatch(showNotice({ kind: "message", text: outcome.data.description || t("playMoney.done"), variant: "success" }));
    void navigate("/profile");
  }
  return (
    <button type="button" className="button button--ghost" disabled={busy} onClick={() => void click()} data-testid="playmoney-reset">
      {t("playMoney.reset")}
    </button>
  );
}

/** ID proof, address proof and PAN card: pick a file, optionally its number, upload with progress. */
function Documents() {
  const { t } = useTranslation("profile");
  const documents = useGetDocumentsQuery();
  return (
    <section className="documents" aria-labelledby="documents-title">
      <h2 id="documents-title">{t("documents.title")}</h2>
      <div className="tiles">
        {(Object.keys(DOCUMENT_CODES) as DocumentKind[]).map((kind) => (
          <DocumentUpload key={kind} kind={kind} uploaded={(documents.data?.documents ?? []).filter((d) => d.docType === DOCUMENT_NAMES[kind])} onUploaded={() => void documents.refetch()} />
        ))}
      </div>
    </section>
  );
}

function DocumentUpload({ kind, uploaded, onUploaded }: { kind: DocumentKind; uploaded: { fileName?: string | null; status?: string | null }[]; onUploaded: () => void }) {
  const { t } = useTranslation("profile");
  const dispatch = useAppDispatch();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [number, setNumber] = useState("");
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function choose(file: File | undefined) {
    if (!file || progress !== null) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      setMessage({ ok: false, text: t("documents.tooLarge") });
      return;
    }
    setMessage(null);
    setProgress(0);
    try {
      await uploadDocument(file, kind, number, setProgress);
      setMessage({ ok: true, text: t("documents.uploaded") });
      setNumber("");
      onUploaded();
    } catch (error) {
      const failure = error instanceof UploadError ? error : new UploadError(String(error), null);
      if (failure.code === SESSION_EXPIRED) dispatch(showNotice({ kind: "sessionExpired" }));
      else setMessage({ ok: false, text: failure.message });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="tile document" data-testid={`document-${kind}`}>
      <span className="tile__title">{t(`documents.${kind}`)}</span>
      <label htmlFor={`${id}-number`}>{t("documents.number")}</label>
      <input id={`${id}-number`} className="input" value={number} maxLength={20} onChange={(e) => setNumber(e.target.value)} />
      <input ref={input} id={`${id}-file`} className="visually-hidden" type="file" accept={ACCEPTED_TYPES} onChange={(e) => void choose(e.target.files?.[0])} data-testid={`document-file-${kind}`} />
      <label htmlFor={`${id}-file`} className="button button--primary document__pick" aria-disabled={progress !== null}>
        {t("documents.upload")}
      </label>
      {progress !== null && <progress max={1} value={progress} aria-label={t("documents.progress")} />}
      {message && (
        <p className={message.ok ? "page__notice page__notice--ok" : "field__error"} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      )}
      {uploaded.length > 0 && (
        <ul className="document__list">
          {uploaded.map((doc, n) => (
            <li key={`${doc.fileName ?? ""}-${n}`}>
              {doc.fileName} · {doc.status}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
