import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import type { WithdrawResponse } from "../../../api/contracts.gen";
import { SESSION_EXPIRED } from "../../../api/errors";
import { useExclusiveCall } from "../../../api/useExclusiveCall";
import { FormError } from "../../../forms/FormError";
import { FormFields, type FieldSpec } from "../../../forms/FormFields";
import { digitsOnly } from "../../../forms/keys";
import { useForm, useFormMessage } from "../../../forms/useForm";
import { useGetConfigQuery } from "../../../lib/config/configApi";
import { useAppDispatch } from "../../../lib/store/hooks";
import { showNotice } from "../../../lib/store/uiSlice";
import { moneyInText } from "../../../utils/money";
import { useGetCashOutInfoQuery, useWithdrawMutation } from "../cashierApi";
import { CUIT_PREFIXES, exceedsCash, formFor, INSUFFICIENT_BALANCE, withdrawRules, type WithdrawForm } from "../withdrawForms";

/** Form B's success popup (and its note under the form) hides after 5 s, its error after 6 s. */
export const FORM_B_SUCCESS_MS = 5000;
export const FORM_B_ERROR_MS = 6000;

/** The player's withdraw method: its form (A or B) with the cash and limits the platform gives. */
export function WithdrawPanel({ methodId, methodName }: { methodId: number; methodName: string }) {
  // `currentData`: the cash and limits of this method only, never the last method's.
  const info = useGetCashOutInfoQuery(methodId).currentData;
  const form = formFor(methodName);
  return <WithdrawFormView form={form} methodName={methodName} cash={info?.cashBalance} limits={info} />;
}

function WithdrawFormView({ form: spec, methodName, cash, limits }: { form: WithdrawForm; methodName: string; cash: number | null | undefined; limits?: { minAmount?: number | null; maxAmount?: number | null } }) {
  const { t } = useTranslation("cashier");
  const tf = useFormMessage();
  const id = useId();
  const dispatch = useAppDispatch();
  const symbol = useGetConfigQuery().data?.skin.currencySymbol ?? "";
  const [withdraw] = useWithdrawMutation();
  const call = useExclusiveCall((arg: { body: Record<string, unknown>; key: string }) => withdraw({ route: spec.route, ...arg }));
  const [accountType, setAccountType] = useState(spec.initial.accountType ?? "");
  const rules = useMemo(() => withdrawRules(spec, accountType), [spec, accountType]);
  const form = useForm(rules, spec.initial);
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const formB = spec.id === "formB";
  const short = formB && exceedsCash(String(form.values.amount), cash);

  useEffect(() => {
    if (spec.id !== "formB" || (!failure && !success)) return;
    const timer = setTimeout(() => (setFailure(null), setSuccess(null)), success ? FORM_B_SUCCESS_MS : FORM_B_ERROR_MS);
    return () => clearTimeout(timer);
  }, [spec.id, failure, success]);

  // Form B's CUIT is one value: the prefix chosen beside the 9 digits typed.
  const cuitPrefix = (
    <select className="input" aria-label={t("withdraw.fields.cuitPrefix")} value={String(form.values.cuitPrefix)} onChange={(e) => form.set("cuitPrefix", e.target.value)} data-testid="withdraw-cuit-prefix">
      {CUIT_PREFIXES.map((prefix) => (
        <option key={prefix} value={prefix}>
          {prefix}
        </option>
      ))}
    </select>
  );
  const field = (name: string): FieldSpec<string> => {
    const numeric = ["amount", "phone", "personalNumber", "zip", "cuit"].includes(name) && !(spec.id === "formA" && name === "personalNumber");
    return {
      name,
      label: t(`withdraw.fields.${spec.id === "formA" && name === "personalNumber" ? "upiId" : (name as "amount")}`),
      inputMode: numeric ? "numeric" : undefined,
      keys: name === "amount" || name === "phone" || name === "cuit" ? digitsOnly : undefined,
      maxLength: name === "cbu" ? 22 : name === "phone" ? 12 : name === "cuit" ? 9 : undefined,
      upper: name === "ifsc" || (spec.id === "formA" && name === "personalNumber"),
      leading: name === "cuit" ? cuitPrefix : undefined,
      hint: name === "cuit" ? t("withdraw.cuitHint") : undefined,
    };
  };
  const textFields = Object.keys(spec.initial).filter((name) => !["accountType", "cuitPrefix"].includes(name)).map(field);

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid || short) return;
    const values = Object.fromEntries(Object.entries(form.values).map(([k, v]) => [k, String(v)]));
    const outcome = await call.run(spec.body(values, methodName));
    if (!outcome) return;
    if (!outcome.ok) {
      if (outcome.code === SESSION_EXPIRED) return;
      // A refused withdrawal shows result.errorMsg, else the description.
      fail(outcome.reply?.result?.errorMsg || outcome.message);
      return;
    }
    const reply: WithdrawResponse = outcome.data;
    if (reply.result?.success === false) {
      const message = reply.result.errorMsg || reply.description;
      if (message) fail(message);
      else dispatch(showNotice({ kind: "message", text: t("withdraw.processing"), variant: "info" }));
      return;
    }
    form.reset();
    setSuccess(t("withdraw.success"));
    dispatch(showNotice({ kind: "message", text: t("withdraw.success"), variant: "success", hideAfterMs: formB ? FORM_B_SUCCESS_MS : undefined }));
  }

  function fail(message: string) {
    setFailure(tf(message));
    dispatch(showNotice({ kind: "message", title: t("withdraw.failedTitle"), text: tf(message), variant: "error", hideAfterMs: formB ? FORM_B_ERROR_MS : undefined }));
  }

  return (
    <form className="panel cashier-form" noValidate onSubmit={(event) => void submit(event)} aria-busy={call.busy} data-testid={`withdraw-form-${spec.id}`}>
      <p className="cashier-form__cash" data-testid="withdraw-cash">
        {t("withdraw.cash", { cash: moneyInText(cash, symbol) })}
        {limits?.minAmount != null && <> · {t("withdraw.limits", { min: moneyInText(limits.minAmount, symbol), max: limits.maxAmount != null ? moneyInText(limits.maxAmount, symbol) : "—" })}</>}
      </p>
      {spec.id === "formA" && (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-type`}>
            {t("withdraw.fields.accountType")}
          </label>
          <select
            id={`${id}-type`}
            className="input"
            value={String(form.values.accountType)}
            onChange={(e) => {
              form.set("accountType", e.target.value);
              setAccountType(e.target.value);
            }}
          >
            <option value="Paytm">Paytm</option>
            <option value="Phonepe" disabled>
              Phonepe
            </option>
            <option value="UPI" disabled>
              UPI
            </option>
          </select>
        </div>
      )}
      {spec.id === "bank" && (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-acct`}>
            {t("withdraw.fields.accountType")}
          </label>
          <select id={`${id}-acct`} className="input" value={String(form.values.accountType)} onChange={(e) => form.set("accountType", e.target.value)}>
            <option value="Savings">{t("withdraw.savings")}</option>
            <option value="Current">{t("withdraw.current")}</option>
          </select>
        </div>
      )}
      <FormFields form={form} fields={textFields} onFocus={() => setFailure(null)} />
      {spec.id === "formB" && (
        <p className={short ? "field__error" : "field__hint"} role={short ? "alert" : undefined} data-testid="withdraw-balance-note">
          {short ? tf(INSUFFICIENT_BALANCE) : t("withdraw.balanceNote")}
        </p>
      )}
      <FormError text={failure} />
      {success && (
        <p className="page__notice page__notice--ok" role="status">
          {success}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={!form.valid || short || call.busy} data-testid="withdraw-submit">
        {call.busy ? <span className="spinner" aria-label={t("withdraw.sending")} /> : t("withdraw.submit")}
      </button>
    </form>
  );
}
