import { useState } from "react";
import { useTranslation } from "react-i18next";

import { PayChoice } from "./PayChoice";
import { useGetDepositSystemQuery, useGetPaymentSystemsQuery } from "./cashierApi";
import { DepositFlow } from "./components/DepositFlow";
import { MethodLoader } from "./components/MethodLoader";
import { PayMethods } from "./components/PayMethods";
import { type DepositFormId, type PayMethod } from "./depositForms";
import "../../styles/cashier.css";

const METHOD_ORDER: DepositFormId[] = ["328", "326", "329", "332", "300"];

/** Deposit (the router's FlowGate checks the flow first): the methods, each one's form and limits, then the provider's page and the status. */
export function DepositScreen() {
  const { t } = useTranslation("cashier");
  // The methods from every payment system; the chosen one's limits and currency from depositSystems?pgid={id}.
  const systems = useGetPaymentSystemsQuery();
  const deposits = (systems.data?.paymentSystems ?? []).filter((s) => s.type === "deposit");
  const available = new Set(deposits.map((s) => String(s.id)));
  const methods = METHOD_ORDER.filter((m) => available.has(m));
  const [method, setMethod] = useState<DepositFormId>("328");
  const [payMethod, setPayMethod] = useState<PayMethod>("phone_pe");
  const chosen = methods.includes(method) ? method : methods[0];
  // `currentData`: the chosen method's own answer; choosing another clears the last one's limits (a loader until it answers).
  const chosenSystem = useGetDepositSystemQuery(Number(chosen), { skip: !chosen });
  const system = chosenSystem.currentData?.paymentSystems?.find((s) => String(s.id) === chosen);
  // The loader only after another method was shown: a first visit paints as before.
  const switching = chosenSystem.isFetching && chosenSystem.data !== undefined && chosenSystem.currentData === undefined;

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
            logo={deposits.find((s) => String(s.id) === m)?.image}
            name={t(`deposit.method.m${m}`)}
            testId={`deposit-method-${m}`}
            onChoose={() => setMethod(m)}
          />
        ))}
      </div>
      {chosen === "328" && <PayMethods value={payMethod} onChange={setPayMethod} />}
      {switching && <MethodLoader />}
      {chosen && system && (
        <DepositFlow key={`${chosen}-${payMethod}`} method={chosen} payMethod={payMethod} currency={system.currency} limits={system} />
      )}
    </section>
  );
}
