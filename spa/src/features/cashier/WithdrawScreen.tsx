import { useState } from "react";
import { useTranslation } from "react-i18next";

import { useGetCashOutInfoQuery, useGetPaymentSystemsQuery } from "./cashierApi";
import { MethodLoader } from "./components/MethodLoader";
import { OpenWithdrawals } from "./components/OpenWithdrawals";
import { WageringInfo } from "./components/WageringInfo";
import { WithdrawPanel } from "./components/WithdrawPanel";
import "../../styles/history.css";
import "../../styles/cashier.css";

/** Withdraw (the router's FlowGate checks the flow first): the player's method, its form and limits, the wagering still locked, open requests. */
export function WithdrawScreen() {
  const { t } = useTranslation("cashier");
  const systems = useGetPaymentSystemsQuery();
  const methods = (systems.data?.paymentSystems ?? []).filter((s) => s.type === "withdraw");
  const [chosen, setChosen] = useState<number | null>(null);
  const method = methods.find((m) => m.id === chosen) ?? methods[0];
  // The panel's first line (cash and limits) wraps once the limits arrive: the screen waits for them.
  // Another method's request clears the last one's cash and limits (`currentData`): a loader until its own answer.
  const cashOut = useGetCashOutInfoQuery(method?.id ?? 0, { skip: !method });
  const settled = !systems.isLoading && (!method || cashOut.currentData !== undefined || cashOut.isError);
  // The loader only after another method was shown: a first visit paints as before.
  const switching = cashOut.isFetching && cashOut.data !== undefined && cashOut.currentData === undefined;

  return (
    <section className="screen">
      <h1 className="screen__title">{t("withdraw.title")}</h1>
      {methods.length > 1 && (
        <div className="tabs" role="tablist" aria-label={t("withdraw.methods")}>
          {methods.map((m) => (
            <button key={m.id} type="button" role="tab" className="provider-chip" aria-selected={m.id === method?.id} onClick={() => setChosen(m.id)} data-testid={`withdraw-method-${m.name}`}>
              {t(`withdraw.method.${m.name as "paykassma"}`, { defaultValue: m.name })}
            </button>
          ))}
        </div>
      )}
      {/* Once the method and its limits are known: the form arriving or growing above the
          wagering and the open requests would push them down. */}
      {switching && <MethodLoader />}
      {settled && (
        <>
          <div className="cashier-layout">
            {method && <WithdrawPanel key={method.id} methodId={method.id} methodName={method.name} />}
            <WageringInfo />
          </div>
          <OpenWithdrawals />
        </>
      )}
    </section>
  );
}
