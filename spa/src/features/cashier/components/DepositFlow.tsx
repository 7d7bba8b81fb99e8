import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { Dialog } from "../../../components/Dialog";
import { useShownFor } from "../../../lib/useShownFor";
import { type DepositFormId, type PayMethod } from "../depositForms";
import { useDepositStatus } from "../useDepositStatus";
import { DepositForm } from "./DepositForm";
import { ScanAndPay } from "./ScanAndPay";

/** "Deposit Successfull" shows for 2 s. */
export const SUCCESS_POPUP_MS = 2000;

type Step = { kind: "form" } | { kind: "qr"; sequeNo: string; link: string } | { kind: "following"; sequeNo: string };

/** One deposit from form to result: the form, the provider's QR or page, the status until approved. */
export function DepositFlow({ method, payMethod, currency, limits }: { method: DepositFormId; payMethod: PayMethod; currency: string; limits: { minAmount?: number | null; maxAmount?: number | null } }) {
  const { t } = useTranslation("cashier");
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: "form" });
  const { progress, follow } = useDepositStatus();
  const [pendingClosed, setPendingClosed] = useState(false);
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
        <div className="panel" role="status" data-testid="deposit-following">
          <h2>{t("deposit.pendingTitle")}</h2>
          <p>{progress.state === "other" ? t("deposit.statusOther", { status: progress.status }) : t("deposit.pending")}</p>
          {progress.state === "pending" && progress.comments && <p className="screen__soon">{progress.comments}</p>}
        </div>
      )}
      {/* A pending status shows the pending popup until the provider approves (the
          page keeps checking, and says so, if the player closes it). */}
      {step.kind === "following" && progress.state === "pending" && !pendingClosed && (
        <Dialog labelledBy="deposit-pending-title" onClose={() => setPendingClosed(true)} className="notice notice--info" testId="deposit-pending">
          <h2 id="deposit-pending-title" className="notice__title">
            {t("deposit.pendingTitle")}
          </h2>
          <p className="notice__text">{t("deposit.pending")}</p>
          {progress.comments && <p className="notice__text">{progress.comments}</p>}
          <button type="button" className="button button--primary" data-autofocus onClick={() => setPendingClosed(true)}>
            {t("deposit.ok")}
          </button>
        </Dialog>
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
