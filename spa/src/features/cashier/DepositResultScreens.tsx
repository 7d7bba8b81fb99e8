import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";

import { api } from "../../api/baseApi";
import { Dialog } from "../../components/Dialog";
import { PageLoader } from "../../components/PageLoader";
import { useAppDispatch } from "../../lib/store/hooks";
import "../../styles/cashier.css";

type Result = "success" | "failed" | "pending";

/** deposit-success, -failed and -pending: the provider sends the player back here. */
function DepositResult({ result }: { result: Result }) {
  const { t } = useTranslation("cashier");
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const message = query.get("message");

  function ok() {
    if (result === "success") {
      // the credited deposit shows in the header at once
      dispatch(api.util.invalidateTags(["Balance"]));
      void navigate("/home");
    } else void navigate("/");
  }

  return (
    <section className="screen deposit-result" data-testid={`deposit-${result}`}>
      <h1 className="screen__title">{t(`result.${result}`)}</h1>
      {message && <p>{message}</p>}
      <button type="button" className="button button--primary" onClick={ok} data-testid="deposit-result-ok">
        {t("result.ok")}
      </button>
    </section>
  );
}

export const DepositSuccessScreen = () => <DepositResult result="success" />;
export const DepositFailedScreen = () => <DepositResult result="failed" />;
export const DepositPendingScreen = () => <DepositResult result="pending" />;

/** depositresponse (outside the layout): result=success goes on to /profile, anything else to /deposit. */
export function DepositResponseScreen() {
  // Outside the layout, so its own boundary while the texts load.
  return (
    <Suspense fallback={<PageLoader />}>
      <DepositResponse />
    </Suspense>
  );
}

function DepositResponse() {
  const { t } = useTranslation("cashier");
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const success = query.get("result") === "success";
  const message = query.get("message") ?? t(success ? "result.successText" : "result.errorText");
  const close = () => void navigate(success ? "/profile" : "/deposit");
  return (
    <main className="deposit-response">
      <nav aria-label={t("result.breadcrumb")} className="breadcrumb">
        <Link to="/home">{t("result.home")}</Link> › <span aria-current="page">{t("result.breadcrumb")}</span>
      </nav>
      <Dialog labelledBy="deposit-response-title" onClose={close} role="alertdialog" className={`notice notice--${success ? "success" : "error"}`} testId="deposit-response">
        <h1 id="deposit-response-title" className="notice__title">
          {t("result.title")}
        </h1>
        <p className="notice__text">{message}</p>
        <button type="button" className="button button--primary" data-autofocus onClick={close}>
          {t("result.close")}
        </button>
      </Dialog>
    </main>
  );
}
