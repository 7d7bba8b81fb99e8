import { useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";

import { SESSION_EXPIRED } from "../../../api/errors";
import { contractRules } from "../../../api/rules.gen";
import { useExclusiveCall } from "../../../api/useExclusiveCall";
import { FormError } from "../../../forms/FormError";
import { FormFields, type FieldSpec } from "../../../forms/FormFields";
import { digitsOnly } from "../../../forms/keys";
import { useForm, useFormMessage } from "../../../forms/useForm";
import { useAppDispatch } from "../../../lib/store/hooks";
import { showNotice } from "../../../lib/store/uiSlice";
import { useAddBankAccountMutation, useDeleteBankAccountsMutation, useGetBankAccountsQuery } from "../profileApi";
import { Modal } from "./Modal";

type BankField = "bankAccountNumber" | "bankName" | "accountBranchName" | "nameOnAccount" | "accountType" | "personalNumber";
const EMPTY_BANK: Record<BankField, string> = { bankAccountNumber: "", bankName: "", accountBranchName: "", nameOnAccount: "", accountType: "", personalNumber: "" };

/** The bank account modal (id accountDetails): add an account, list them, delete one. */
export function BankAccountsModal({ onClose }: { onClose: () => void }) {
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
