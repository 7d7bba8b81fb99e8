import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import type { DepositResponse } from "../../api/contracts.gen";
import { contractRules } from "../../api/rules.gen";
import { Dialog } from "../../components/Dialog";
import { useGetProfileQuery } from "../../lib/player/accountApi";
import {
  useConfirmScanAndPayMutation,
  useDepositMutation,
  useGetDepositSystemsQuery,
  useGetPaymentMethodsQuery,
} from "./cashierApi";
import {
  depositBody,
  depositInitial,
  depositPresets,
  depositRefusal,
  depositRules,
  PAY_METHODS,
  SCAN_AND_PAY,
  VENEZUELA_BANKS,
  type DepositFormId,
  type PayMethod,
} from "./depositForms";
import { PayChoice } from "./PayChoice";
import { useDepositStatus } from "./useDepositStatus";
import { useExclusiveCall } from "../../api/useExclusiveCall";
import { useGetConfigQuery } from "../../lib/config/configApi";
import { useTimedRedirect } from "../../lib/useTimedRedirect";
import { useSession } from "../../lib/session/useSession";
import { FormError } from "../../forms/FormError";
import { FormFields, type FieldSpec } from "../../forms/FormFields";
import { digitsOnly } from "../../forms/keys";
import { useForm, useFormMessage } from "../../forms/useForm";
import { formatMoney, moneyInText } from "../../utils/money";
import { SESSION_EXPIRED } from "../../api/errors";
import { useAppDispatch } from "../../lib/store/hooks";
import { showNotice } from "../../lib/store/uiSlice";
import { CASHIER_CHECK_MS } from "./WithdrawScreen";
import { useShownFor } from "../../lib/useShownFor";
import "../../styles/cashier.css";

/** Section 9: "Deposit Successfull" shows for 2 s. */
export const SUCCESS_POPUP_MS = 2000;
const METHOD_ORDER: DepositFormId[] = ["328", "326", "329", "332", "300"];

type Step = { kind: "form" } | { kind: "qr"; sequeNo: string; link: string } | { kind: "following"; sequeNo: string };

/** Deposit: the methods, each one's form and limits, then the provider's page and the status. */
export function DepositScreen() {
  const { t } = useTranslation("cashier");
  useTimedRedirect(CASHIER_CHECK_MS, () => sessionStorage.getItem("Dp") === "false");
  const systems = useGetDepositSystemsQuery();
  const available = new Set((systems.data?.paymentSystems ?? []).map((s) => String(s.id)));
  const methods = METHOD_ORDER.filter((m) => available.has(m));
  const [method, setMethod] = useState<DepositFormId>("328");
  const [payMethod, setPayMethod] = useState<PayMethod>("phone_pe");
  const chosen = methods.includes(method) ? method : methods[0];
  const system = systems.data?.paymentSystems?.find((s) => String(s.id) === chosen);

  return (
    <section className="screen">
      <h1 className="screen__title">{t("deposit.title")}</h1>
      <h2 className="cashier-step" id="deposit-methods">
        {t("deposit.methods")}
      </h2>
      <div className="pay-methods" role="tablist" aria-labelledby="deposit-methods">
        {methods.map((m) => (
          <PayChoice
            key={m}
            role="tab"
            chosen={m === chosen}
            logo={systems.data?.paymentSystems?.find((s) => String(s.id) === m)?.image}
            name={t(`deposit.method.m${m}`)}
            testId={`deposit-method-${m}`}
            onChoose={() => setMethod(m)}
          />
        ))}
      </div>
      {chosen === "328" && <PayMethods value={payMethod} onChange={setPayMethod} />}
      {chosen && system && (
        <DepositFlow key={`${chosen}-${payMethod}`} method={chosen} payMethod={payMethod} currency={system.currency} limits={system} />
      )}
    </section>
  );
}

function PayMethods({ value, onChange }: { value: PayMethod; onChange: (m: PayMethod) => void }) {
  const { t } = useTranslation("cashier");
  const { data } = useGetPaymentMethodsQuery();
  const listed = (data?.paymentMethods ?? []).filter((m) => PAY_METHODS.includes(m.payMethod as PayMethod));
  return (
    <>
      <h2 className="cashier-step" id="deposit-pay-methods">
        {t("deposit.payMethods")}
      </h2>
      <div className="pay-methods" role="radiogroup" aria-labelledby="deposit-pay-methods">
        {listed.map(({ payMethod, image }) => (
          <PayChoice
            key={payMethod}
            role="radio"
            chosen={payMethod === value}
            logo={image}
            name={t(`deposit.payMethod.${payMethod as PayMethod}`)}
            testId={`pay-method-${payMethod}`}
            onChoose={() => onChange(payMethod as PayMethod)}
          />
        ))}
      </div>
    </>
  );
}

function DepositFlow({ method, payMethod, currency, limits }: { method: DepositFormId; payMethod: PayMethod; currency: string; limits: { minAmount?: number | null; maxAmount?: number | null } }) {
  const { t } = useTranslation("cashier");
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: "form" });
  const { progress, follow } = useDepositStatus();
  const [celebrate, endCelebration] = useShownFor(progress.state === "approved" ? "approved" : null, SUCCESS_POPUP_MS);

  return (
    <>
      {step.kind === "form" && (
        <DepositForm
          method={method}
          payMethod={payMethod}
          currency={currency}
          limits={limits}
          onStarted={(reply) => {
            const sequeNo = reply.seque_no ?? "";
            if (reply.result?.externalLink) setStep({ kind: "qr", sequeNo, link: reply.result.externalLink });
            else {
              setStep({ kind: "following", sequeNo });
              follow(sequeNo);
            }
          }}
        />
      )}
      {step.kind === "qr" && (
        <ScanAndPay
          link={step.link}
          sequeNo={step.sequeNo}
          onConfirmed={() => {
            setStep({ kind: "following", sequeNo: step.sequeNo });
            follow(step.sequeNo);
          }}
        />
      )}
      {step.kind === "following" && progress.state !== "approved" && (
        <div className="panel" role="status" data-testid="deposit-pending">
          <h2>{t("deposit.pendingTitle")}</h2>
          <p>{progress.state === "other" ? t("deposit.statusOther", { status: progress.status }) : t("deposit.pending")}</p>
          {progress.state === "pending" && progress.comments && <p className="screen__soon">{progress.comments}</p>}
        </div>
      )}
      {progress.state === "approved" && (
        <div className="panel" data-testid="deposit-approved">
          <p className="page__notice page__notice--ok">{t("deposit.success")}</p>
          <button type="button" className="button button--primary" onClick={() => void navigate("/home")}>
            {t("deposit.ok")}
          </button>
        </div>
      )}
      {celebrate && (
        <Dialog labelledBy="deposit-success-title" onClose={endCelebration} role="alertdialog" className="notice notice--success" testId="deposit-success">
          <h2 id="deposit-success-title" className="notice__title">{t("deposit.success")}</h2>
          <button type="button" className="button button--primary" data-autofocus onClick={() => void navigate("/home")}>
            {t("deposit.ok")}
          </button>
        </Dialog>
      )}
    </>
  );
}

function DepositForm({ method, payMethod, currency, limits, onStarted }: { method: DepositFormId; payMethod: PayMethod; currency: string; limits: { minAmount?: number | null; maxAmount?: number | null }; onStarted: (reply: DepositResponse) => void }) {
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

/** Scan-and-pay: the provider's QR in a frame, then the transaction id that confirms it. */
function ScanAndPay({ link, sequeNo, onConfirmed }: { link: string; sequeNo: string; onConfirmed: () => void }) {
  const { t } = useTranslation("cashier");
  const formMessage = useFormMessage();
  const [confirm] = useConfirmScanAndPayMutation();
  const call = useExclusiveCall(confirm);
  const form = useForm(contractRules.forms.scanAndPayConfirm, { txnId: "" });
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid) return;
    const outcome = await call.run({ seque_no: sequeNo, txnId: String(form.values.txnId).trim() });
    if (!outcome) return;
    if (!outcome.ok || outcome.data.status === "failure") {
      const message = outcome.ok ? outcome.data.message ?? "" : outcome.message;
      if (!outcome.ok && outcome.code === SESSION_EXPIRED) return;
      setFailure(formMessage(message));
      return;
    }
    onConfirmed();
  }

  return (
    <div className="cashier-layout">
      <iframe className="qr-frame" src={link} title={t("deposit.qrTitle")} data-testid="deposit-qr" />
      <form className="panel cashier-form" noValidate onSubmit={(event) => void submit(event)}>
        <p>{t("deposit.qrHelp")}</p>
        <FormFields form={form} fields={[{ name: "txnId", label: t("deposit.fields.txnId") }]} onFocus={() => setFailure(null)} />
        <FormError text={failure} />
        <button type="submit" className="button button--primary" disabled={!form.valid || call.busy} data-testid="deposit-confirm">
          {t("deposit.confirm")}
        </button>
      </form>
    </div>
  );
}
