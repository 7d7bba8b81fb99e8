import { useTranslation } from "react-i18next";

import { SESSION_EXPIRED } from "../../../api/errors";
import { useExclusiveCall } from "../../../api/useExclusiveCall";
import { useFormMessage } from "../../../forms/useForm";
import { useLocale } from "../../../i18n/useLocale";
import { useStatusText } from "../../../i18n/useStatusText";
import { useGetConfigQuery } from "../../../lib/config/configApi";
import { useAppDispatch } from "../../../lib/store/hooks";
import { showNotice } from "../../../lib/store/uiSlice";
import { localDateTime } from "../../../utils/dates";
import { formatMoney } from "../../../utils/money";
import { useCancelWithdrawalMutation, useGetOpenWithdrawalsQuery } from "../cashierApi";

/** The open withdrawal requests; cancelling one reloads the list. */
export function OpenWithdrawals() {
  const { t } = useTranslation("cashier");
  const locale = useLocale();
  const statusText = useStatusText();
  const dispatch = useAppDispatch();
  const tf = useFormMessage();
  const symbol = useGetConfigQuery().data?.skin.currencySymbol ?? "";
  const { data } = useGetOpenWithdrawalsQuery();
  const [cancel] = useCancelWithdrawalMutation();
  const call = useExclusiveCall(cancel);
  const open = data?.withdrawsResponses ?? [];

  async function drop(cashoutId: string) {
    const outcome = await call.run({ cashoutId });
    if (!outcome) return;
    if (!outcome.ok) {
      if (outcome.code !== SESSION_EXPIRED) dispatch(showNotice({ kind: "message", text: tf(outcome.message), variant: "error" }));
      return;
    }
    dispatch(showNotice({ kind: "notification", text: outcome.data.description || t("open.cancelled"), variant: "success" }));
  }

  return (
    <section className="history__table open-withdrawals" aria-labelledby="open-title">
      <h2 id="open-title">{t("open.title")}</h2>
      {open.length === 0 ? (
        <p className="screen__soon">{t("open.none")}</p>
      ) : (
        <div className="table-scroll table-cards">
          <table data-testid="open-withdrawals">
            <thead>
              <tr>
                <th scope="col">{t("open.reference")}</th>
                <th scope="col">{t("open.date")}</th>
                <th scope="col">{t("open.amount")}</th>
                <th scope="col">{t("open.status")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("open.cancel")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {open.map((row) => (
                <tr key={row.refTxnID}>
                  <td data-label={t("open.reference")}>{row.displayRefTxnID}</td>
                  <td data-label={t("open.date")}>{localDateTime(row.creationDate, locale)}</td>
                  <td className="num cell--lead2" data-label={t("open.amount")}>
                    {formatMoney(row.amount, symbol)}
                  </td>
                  <td className="cell--lead1" data-label={t("open.status")}>
                    {statusText(row.status)}
                  </td>
                  <td>
                    <button type="button" className="link-button" disabled={call.busy} onClick={() => void drop(row.refTxnID)} data-testid="withdraw-cancel">
                      {t("open.cancel")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
