import { useTranslation } from "react-i18next";

import { useGetConfigQuery } from "../../../lib/config/configApi";
import { formatMoney, moneyInText } from "../../../utils/money";
import { useGetWageringInfoQuery } from "../cashierApi";

/** What is still locked by wagering, and why. */
export function WageringInfo() {
  const { t } = useTranslation("cashier");
  const symbol = useGetConfigQuery().data?.skin.currencySymbol ?? "";
  const { data } = useGetWageringInfoQuery();
  if (!data) return null;
  const money = (value: { value?: number } | null | undefined) => formatMoney(value?.value, symbol);
  const locked = (data.remainingBet?.value ?? 0) > 0;
  return (
    <aside className="panel wagering" aria-labelledby="wagering-title" data-testid="wagering">
      <h2 id="wagering-title">{t("wagering.title")}</h2>
      <dl>
        <dt>{t("wagering.balance")}</dt>
        <dd>{money(data.balance)}</dd>
        <dt>{t("wagering.bonus")}</dt>
        <dd>{money(data.bonus)}</dd>
        <dt>{t("wagering.lockedBonus")}</dt>
        <dd>{money(data.lockedBonus)}</dd>
        <dt>{t("wagering.accumulatedBet")}</dt>
        <dd>{money(data.accumulatedBet)}</dd>
        <dt>{t("wagering.remainingBet")}</dt>
        <dd>{money(data.remainingBet)}</dd>
      </dl>
      <p className="screen__soon">{locked ? t("wagering.locked", { remaining: moneyInText(data.remainingBet?.value, symbol) }) : t("wagering.free")}</p>
    </aside>
  );
}
