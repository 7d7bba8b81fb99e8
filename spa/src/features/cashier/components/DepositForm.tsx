import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import type { DepositResponse } from "../../../api/contracts.gen";
import { SESSION_EXPIRED } from "../../../api/errors";
import { useExclusiveCall } from "../../../api/useExclusiveCall";
import { FormError } from "../../../forms/FormError";
import { FormFields, type FieldSpec } from "../../../forms/FormFields";
import { digitsOnly } from "../../../forms/keys";
import { useForm, useFormMessage } from "../../../forms/useForm";
import { useGetConfigQuery } from "../../../lib/config/configApi";
import { useGetProfileQuery } from "../../../lib/player/accountApi";
import { useSession } from "../../../lib/session/useSession";
import { useAppDispatch } from "../../../lib/store/hooks";
import { showNotice } from "../../../lib/store/uiSlice";
import { formatMoney, moneyInText } from "../../../utils/money";
import { useDepositMutation } from "../cashierApi";
import {
  depositBody,
  depositInitial,
  depositPresets,
  depositRefusal,
  depositRules,
  SCAN_AND_PAY,
  VENEZUELA_BANKS,
  type DepositFormId,
  type PayMethod,
} from "../depositForms";

/** The chosen method's form: amount presets, its fields, and the exclusive deposit call. */
export function DepositForm({ method, payMethod, currency, limits, onStarted }: { method: DepositFormId; payMethod: PayMethod; currency: string; limits: { minAmount?: number | null; maxAmount?: number | null }; onStarted: (reply: DepositResponse) => void }) {
  const { t } = useTranslation("cashier");
  const formMessage = useFormMessage();
  const dispatch = useAppDispatch();
  const id = useId();
  const { login } = useSession();
  const profile = useGetProfileQuery().data;
  const skin = useGetConfigQuery().data?.skin;
  const symbol = currency === skin?.currency ? skin.currencySymbol : currency;
  const [upi, setUpi] = useState(false);
  const rules = depositRules(method, payMethod, upi);
  const form = useForm(rules, depositInitial(method));
  const [deposit] = useDepositMutation();
  const call = useExclusiveCall(deposit);
  const [failure, setFailure] = useState<string | null>(null);
  const amountRule = rules.amount;
  const presets = depositPresets(amountRule?.minimum ?? limits.minAmount ?? undefined, amountRule?.maximum ?? limits.maxAmount ?? undefined);

  const label = (name: string) => t(`deposit.fields.${name as "amount"}`);
  const fields: FieldSpec<string>[] = Object.keys(depositInitial(method))
    .filter((name) => name !== "bankCode" && (name !== "upi_no" || rules.upi_no))
    .map((name) => ({
      name,
      label: label(name),
      inputMode: ["amount", "mobileNumber", "phone", "clientPhone"].includes(name) ? "numeric" : undefined,
      keys: ["amount", "mobileNumber", "phone", "clientPhone"].includes(name) ? digitsOnly : undefined,
      type: name === "email" ? "email" : undefined,
      maxLength: name === "number" ? 10 : name === "clientPhone" ? 12 : name === "mobileNumber" || name === "phone" ? 10 : undefined,
    }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid || call.busy) return;
    // A window opened by the click itself is never blocked; it is pointed at the payment page once known.
    const payWindow = method === "328" && payMethod === SCAN_AND_PAY ? null : window.open("", "_blank");
    const values = Object.fromEntries(Object.entries(form.values).map(([k, v]) => [k, String(v)]));
    const body = depositBody(method, payMethod, upi, values, {
      currency,
      login: login ?? "",
      email: profile?.email ?? "",
      phone: profile?.address?.phone ?? "",
      address: profile?.address?.address ?? "",
    });
    const outcome = await call.run(body);
    if (!outcome) return payWindow?.close();
    if (!outcome.ok) {
      payWindow?.close();
      if (outcome.code === SESSION_EXPIRED) return;
      const text = outcome.retryable ? t("deposit.timeout") : formMessage(depositRefusal(method, outcome.message));
      setFailure(text);
      dispatch(showNotice({ kind: "message", title: t("deposit.failedTitle"), text, variant: "error" }));
      return;
    }
    const reply = outcome.data;
    const result = reply.result;
    if (result?.form && payWindow) postTo(payWindow, result.form.url, result.form.method, result.form.params ?? {});
    else if (result?.redirectUrl && payWindow) payWindow.location.href = new URL(`/bff/pay/${encodeURIComponent(reply.seque_no ?? "")}?payMethod=${encodeURIComponent(method === "328" ? payMethod : "")}`, window.location.origin).href;
    else payWindow?.close();
    onStarted(reply);
  }

  return (
    <form className="panel cashier-form" noValidate onSubmit={(event) => void submit(event)} aria-busy={call.busy} data-testid={`deposit-form-${method}`}>
      {limits.minAmount != null && (
        <p className="cashier-form__cash">{t("deposit.limits", { min: moneyInText(amountRule?.minimum ?? limits.minAmount, symbol), max: moneyInText(amountRule?.maximum ?? limits.maxAmount, symbol) })}</p>
      )}
      {method === "326" && (
        <label className="checkbox">
          <input type="checkbox" checked={upi} onChange={(e) => setUpi(e.target.checked)} data-testid="deposit-upi" />
          {t("deposit.byUpi")}
        </label>
      )}
      {method === "332" && (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-bank`}>
            {t("deposit.fields.bankCode")}
          </label>
          <select id={`${id}-bank`} className="input" value={String(form.values.bankCode)} onChange={(e) => form.set("bankCode", e.target.value)} onBlur={() => form.touch("bankCode")}>
            <option value="">{t("deposit.chooseBank")}</option>
            {VENEZUELA_BANKS.map((bank) => (
              <option key={bank} value={bank}>
                {bank}
              </option>
            ))}
          </select>
          {form.errors.bankCode && (
            <p className="field__error" role="alert">
              {form.errors.bankCode}
            </p>
          )}
        </div>
      )}
      {presets.length > 0 && (
        <div className="deposit-presets" role="group" aria-labelledby={`${id}-presets`} data-testid="deposit-presets">
          <span className="field__label" id={`${id}-presets`}>
            {t("deposit.presets")}
          </span>
          <div className="tabs">
            {presets.map((n) => (
              <button key={n} type="button" className="provider-chip" aria-pressed={String(form.values.amount) === String(n)} onClick={() => form.set("amount", String(n))}>
                {formatMoney(n, symbol)}
              </button>
            ))}
          </div>
        </div>
      )}
      <FormFields form={form} fields={fields} onFocus={() => setFailure(null)} />
      <FormError text={failure} />
      <button type="submit" className="button button--primary" disabled={!form.valid || call.busy} data-testid="deposit-submit">
        {call.busy ? <span className="spinner" aria-label={t("deposit.sending")} /> : t("deposit.submit")}
      </button>
      <p className="field__hint">{t("deposit.newWindow")}</p>
    </form>
  );
}

/** Posts a provider's form in the payment window (method 326). */
function postTo(target: Window, url: string, method: string, params: Record<string, string | undefined>) {
  const doc = target.document;
  const form = doc.createElement("form");
  form.method = method || "POST";
  form.action = url;
  for (const [name, value] of Object.entries(params)) {
    const input = doc.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value ?? "";
    form.appendChild(input);
  }
  doc.body.appendChild(form);
  form.submit();
}
