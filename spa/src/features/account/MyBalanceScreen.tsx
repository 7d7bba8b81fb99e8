import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { replyFailure, SESSION_EXPIRED, toAppError } from "../../api/errors";
import { useAppDispatch } from "../../lib/store/hooks";
import { useIdempotentAction } from "../../api/idempotency";
import { showNotice } from "../../lib/store/uiSlice";
import { useGetBalanceQuery } from "../../lib/player/accountApi";
import { currentLevel, exchangeValue, istDate, levelFailure, levelProgress, nextTargets, UNKNOWN_LEVEL_ERROR } from "./vip";
import { useExchangePointsMutation, useGetExchangeRatesQuery, useGetPlayerLevelsQuery, useGetStatsQuery } from "./vipApi";
import { COMPPOINTS, realMoneyWallet } from "../../lib/player/wallets";
import { useGetConfigQuery } from "../../lib/config/configApi";
import { useSession } from "../../lib/session/useSession";
import { digitsOnly } from "../../forms/keys";
import { useLocale } from "../../i18n/useLocale";
import { formatCount, formatMoney } from "../../utils/money";
import "../../styles/history.css";

const round2 = (value: number) => Math.round(value * 100) / 100;

/** My balance: the account, VIP level, balances, next VIP targets and the VIP points exchange. */
export function MyBalanceScreen() {
  const { t } = useTranslation("account");
  const locale = useLocale();
  const { login } = useSession();
  const skin = useGetConfigQuery().data?.skin;
  const balance = useGetBalanceQuery();
  const levels = useGetPlayerLevelsQuery();
  // A refused balance shows its description (an ended session has its own popup).
  const balanceError = balance.isError ? toAppError(balance.error) : null;
  const balanceFailed =
    balanceError ? (balanceError.code === SESSION_EXPIRED ? null : balanceError.message) : balance.data?.success === false ? replyFailure({ description: balance.data.description }) : null;
  const wallet = realMoneyWallet(balance.data, skin?.currency ?? "");
  const points = balance.data?.values?.find((w) => w.wallet.name === COMPPOINTS)?.cash.value ?? 0;
  const money = (value: number | undefined) => formatMoney(value === undefined ? undefined : round2(value), skin?.currencySymbol ?? wallet?.symbol ?? "");
  const levelsError = levels.isError ? toAppError(levels.error) : null;
  const levelsFailed = levelsError?.code === SESSION_EXPIRED ? null : levelFailure(levels.data, levelsError);
  const progress = levelProgress(levels.data);
  const level = currentLevel(progress);
  const cash = wallet?.cash.value ?? 0;
  const bonus = wallet?.bonus.value ?? 0;
  const inPlay = wallet?.cashInPlay.value ?? 0;

  return (
    <section className="screen">
      <h1 className="screen__title">{t("balance.title")}</h1>
      {balanceFailed && (
        <p className="history__error" role="alert" data-testid="balance-error">
          {balanceFailed}
        </p>
      )}
      <div className="table-scroll">
        <table data-testid="balance-table">
          <tbody>
            <tr>
              <th scope="row">{t("balance.account")}</th>
              <td>{login}</td>
            </tr>
            <tr>
              <th scope="row">{t("balance.vipLevel")}</th>
              <td data-testid="vip-level">{level?.name ?? "—"}</td>
            </tr>
            <tr>
              <th scope="row">{t("balance.available")}</th>
              <td className="num" data-testid="balance-available">{money(cash)}</td>
            </tr>
            <tr>
              <th scope="row">{t("balance.bonus")}</th>
              <td className="num">{money(bonus)}</td>
            </tr>
            <tr>
              <th scope="row">{t("balance.inPlay")}</th>
              <td className="num">{money(inPlay)}</td>
            </tr>
            <tr>
              <th scope="row">{t("balance.total")}</th>
              <td className="num" data-testid="balance-total">{money(cash + bonus + inPlay)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      {levelsFailed && (
        <p className="history__error" role="alert" data-testid="vip-level-error">
          {t("balance.levelFailed", { reason: levelsFailed === UNKNOWN_LEVEL_ERROR ? t("balance.unknownError") : levelsFailed })}
        </p>
      )}

      {nextTargets(progress).length > 0 && (
        <section aria-label={t("balance.nextTargets")}>
          <h2>{t("balance.nextTargets")}</h2>
          <ul className="vip-targets" data-testid="vip-targets">
            {nextTargets(progress).map(({ level: target, counter }) => (
              <li key={target.name}>
                {t("balance.target", {
                  level: target.name,
                  points: formatCount(Math.max(0, target.compPoints - (counter?.compPoints ?? 0))),
                  date: istDate(counter?.endDate, locale),
                })}
              </li>
            ))}
          </ul>
        </section>
      )}

      {/* Below the targets, so it waits for them: arriving later, they would push it down. */}
      {!levels.isLoading && <PointsExchange points={points} money={money} />}
      {/* Last on the page: arriving late, the stats push nothing down. */}
      <PlayerStatsTable money={money} />
    </section>
  );
}

/** The player's lifetime totals (getStats); nothing while they load or when they are refused. */
function PlayerStatsTable({ money }: { money: (value: number | undefined) => string }) {
  const { t } = useTranslation("account");
  const stats = useGetStatsQuery().data;
  if (!stats || stats.success === false) return null;
  return (
    <section aria-label={t("stats.title")}>
      <h2>{t("stats.title")}</h2>
      <div className="table-scroll">
        <table data-testid="player-stats">
          <tbody>
            <tr>
              <th scope="row">{t("stats.gamesPlayed")}</th>
              <td className="num">{formatCount(stats.gamesPlayed ?? 0)}</td>
            </tr>
            <tr>
              <th scope="row">{t("stats.totalBets")}</th>
              <td className="num">{money(stats.totalBets ?? 0)}</td>
            </tr>
            <tr>
              <th scope="row">{t("stats.totalWins")}</th>
              <td className="num">{money(stats.totalWins ?? 0)}</td>
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** VIP points into cash at the platform's rate, shown before the player confirms. */
function PointsExchange({ points, money }: { points: number; money: (value: number) => string }) {
  const { t } = useTranslation("account");
  const id = useId();
  const dispatch = useAppDispatch();
  const rates = useGetExchangeRatesQuery();
  const rate = rates.data?.rates?.[0];
  const [wanted, setWanted] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [exchange, state] = useExchangePointsMutation();
  const action = useIdempotentAction();
  const value = Number(wanted);
  const minimum = rate?.minimumPoints ?? 0;
  const problem = !wanted ? null : value < minimum ? t("vip.minimum", { points: formatCount(minimum) }) : value > points ? t("vip.tooMany") : null;
  const cash = rate ? exchangeValue(value, rate.compPoints, rate.rate) : 0;

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!rate || problem || !wanted || state.isLoading) return;
    if (!confirming) {
      setConfirming(true);
      return;
    }
    const body = { compPoints: value, currency: rate.currency };
    const result = await exchange({ body, key: action.keyFor(body) });
    if (result.error && "status" in result.error && result.error.status === "FETCH_ERROR") {
      // no answer: the same action may be retried with the same key
      dispatch(showNotice({ kind: "message", text: toAppError(result.error).message, variant: "error" }));
      return;
    }
    action.settle();
    setConfirming(false);
    if (result.error || result.data?.success === false) {
      const text = result.error ? toAppError(result.error).message : replyFailure(result.data);
      dispatch(showNotice({ kind: "message", text, variant: "error" }));
      return;
    }
    setWanted("");
    dispatch(showNotice({ kind: "message", text: t("vip.done", { cash: money(result.data?.cashCredited ?? cash) }), variant: "success" }));
  }

  return (
    <section className="history-form panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("vip.title")}</h2>
      <p data-testid="vip-points">{t("vip.points", { points: formatCount(points) })}</p>
      {rate && <p className="screen__soon">{t("vip.rate", { points: formatCount(rate.compPoints), cash: money(rate.rate), minimum: formatCount(rate.minimumPoints) })}</p>}
      <form className="history-form__dates" onSubmit={(event) => void confirm(event)} noValidate>
        <label htmlFor={`${id}-points`}>{t("vip.amount")}</label>
        <input
          id={`${id}-points`}
          className="input"
          inputMode="numeric"
          value={wanted}
          onKeyDown={digitsOnly}
          onChange={(e) => {
            setWanted(e.target.value.replace(/\D/g, ""));
            setConfirming(false);
          }}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          data-testid="vip-exchange-points"
        />
        <button type="submit" className="button button--primary" disabled={!rate || !wanted || problem !== null || state.isLoading} data-testid="vip-exchange">
          {confirming ? t("vip.confirm", { cash: money(cash) }) : t("vip.exchange")}
        </button>
      </form>
      {problem && (
        <p id={`${id}-problem`} className="field__error" role="alert">
          {problem}
        </p>
      )}
      {confirming && !problem && <p role="status">{t("vip.preview", { points: formatCount(value), cash: money(cash) })}</p>}
    </section>
  );
}
