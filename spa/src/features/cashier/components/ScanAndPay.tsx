import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { SESSION_EXPIRED } from "../../../api/errors";
import { contractRules } from "../../../api/rules.gen";
import { useExclusiveCall } from "../../../api/useExclusiveCall";
import { FormError } from "../../../forms/FormError";
import { FormFields } from "../../../forms/FormFields";
import { useForm, useFormMessage } from "../../../forms/useForm";
import { useConfirmScanAndPayMutation } from "../cashierApi";

/** Scan-and-pay: the provider's QR in a frame, then the transaction id that confirms it. */
export function ScanAndPay({ link, sequeNo, onConfirmed }: { link: string; sequeNo: string; onConfirmed: () => void }) {
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
