import { useTranslation } from "react-i18next";

import { PayChoice } from "../PayChoice";
import { useGetPaymentMethodsQuery } from "../cashierApi";
import { PAY_METHODS, type PayMethod } from "../depositForms";

/** The pay methods of the chosen deposit method, one tab each. */
export function PayMethods({ value, onChange }: { value: PayMethod; onChange: (m: PayMethod) => void }) {
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
