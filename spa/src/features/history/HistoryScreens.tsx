import { useEffect, useEffectEvent, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";

import type { GameHistoryResponse, GameHistoryRow, RemoteGame, RemoteGamesResponse, TransactionHistoryResponse } from "../../api/contracts.gen";
import { toAppError } from "../../api/errors";
import { useGetConfigQuery } from "../../lib/config/configApi";
import {
  GAME_PAGE_SIZES,
  PAGE_SIZES,
  defaultRange,
  depositStatus,
  isoDay,
  moneyFromText,
  rangeProblem,
  requestDate,
} from "./dates";
import { useLazyGameHistoryQuery, useLazyRemoteGamesHistoryQuery, useLazyTransactionHistoryQuery } from "./historyApi";
import { PagedTable } from "./PagedTable";
import { RangeForm } from "./RangeForm";
import { useLocale } from "../../i18n/useLocale";
import { useStatusText } from "../../i18n/useStatusText";
import { localDateTime } from "../../utils/dates";
import { formatMoney } from "../../utils/money";
import "../../styles/history.css";

/** Platform answers that mean "nothing in that period" in a history. */
const NO_HISTORY = new Set(["TECHNICAL_ERROR", "failed to get transaction history with given input"]);
const TRANSACTION_LIMIT = 100;
const GAME_LIMIT = 10_000_000;

function useMoney() {
  const symbol = useGetConfigQuery().data?.skin.currencySymbol ?? "";
  return (value: number) => formatMoney(value, symbol);
}

function useCurrency(): string {
  return useGetConfigQuery().data?.skin.currency ?? "";
}

/** The latest period is shown on arrival, once the skin's currency is known; the form asks for others. */
function useShowOnArrival(currency: string, show: () => void): void {
  const showNow = useEffectEvent(show);
  useEffect(() => {
    if (currency) showNow();
  }, [currency]);
}

/** Deposits and cashouts in a period: type checkboxes, dates, two paged tables. */
export function TransactionHistoryScreen() {
  const { t } = useTranslation("history");
  const locale = useLocale();
  const statusText = useStatusText();
  const money = useMoney();
  const currency = useCurrency();
  const id = useId();
  const today = isoDay(new Date());
  const [range, setRange] = useState(() => defaultRange(7));
  const [types, setTypes] = useState({ deposits: true, cashout: true });
  const [asked, setAsked] = useState(types);
  const [trigger, result] = useLazyTransactionHistoryQuery();
  const problem = rangeProblem(range.start, range.end, today);
  const noType = !types.deposits && !types.cashout;

  function show() {
    setAsked(types);
    const type = [types.deposits && "Deposits", types.cashout && "Cashout"].filter(Boolean).join(",");
    void trigger({ currency, startDate: requestDate(range.start), endDate: requestDate(range.end), limit: TRANSACTION_LIMIT, index: 0, type }, false);
  }

  useShowOnArrival(currency, show);

  // A request clears the last result: `currentData` is this request's answer only (none while it
  // is on its way or when it failed), never the last period's rows.
  const data: TransactionHistoryResponse | undefined = result.isFetching ? undefined : result.currentData;
  const deposits = useMemo(() => (asked.deposits && data?.deposits) || [], [asked, data]);
  const cashouts = useMemo(() => (asked.cashout && data?.cashouts) || [], [asked, data]);
  const failed = result.isError && !result.isFetching ? toAppError(result.error).message : null;
  const refused = data?.success === false && !NO_HISTORY.has(data.description ?? "") ? data.description : null;
  const empty = !!data && !refused && deposits.length === 0 && cashouts.length === 0;

  return (
    <section className="screen">
      <h1 className="screen__title">{t("transactions.title")}</h1>
      <RangeForm
        range={range}
        today={today}
        onRange={setRange}
        problem={problem}
        rangeMessage={t("dates.transactionRange")}
        blocked={noType}
        busy={result.isFetching}
        onShow={show}
      >
        <fieldset className="history-form__types" aria-describedby={noType ? `${id}-type` : undefined}>
          <legend className="visually-hidden">{t("transactions.types")}</legend>
          <label>
            <input type="checkbox" checked={types.deposits} onChange={(e) => setTypes((s) => ({ ...s, deposits: e.target.checked }))} data-testid="history-deposits" />
            {t("transactions.deposits")}
          </label>
          <label>
            <input type="checkbox" checked={types.cashout} onChange={(e) => setTypes((s) => ({ ...s, cashout: e.target.checked }))} data-testid="history-cashout" />
            {t("transactions.cashouts")}
          </label>
        </fieldset>
        {noType && (
          <p id={`${id}-type`} className="field__error" role="alert">
            {t("transactions.pickType")}
          </p>
        )}
      </RangeForm>

      {(failed || refused) && (
        <p className="history__error" role="alert">
          {failed ?? refused}
        </p>
      )}
      {(empty || (data?.success === false && !refused)) && (
        <p className="history__empty" data-testid="history-empty">
          {t("empty")}
        </p>
      )}

      {deposits.length > 0 && (
        <PagedTable
          title={t("transactions.deposits")}
          rows={deposits}
          sizes={PAGE_SIZES}
          testId="history-deposits-table"
          rowKey={(row, n) => `${row.seque_no ?? n}-${row.startDate}`}
          columns={[
            { header: t("columns.date"), cell: (row) => localDateTime(row.startDate, locale) },
            { header: t("columns.amount"), cell: (row) => money(row.cashAmount), numeric: true, lead: 2 },
            { header: t("columns.bonus"), cell: (row) => money(row.bonus), numeric: true },
            { header: t("columns.status"), cell: (row) => statusText(depositStatus(row.status)), lead: 1 },
          ]}
        />
      )}
      {cashouts.length > 0 && (
        <PagedTable
          title={t("transactions.cashouts")}
          rows={cashouts}
          sizes={PAGE_SIZES}
          testId="history-cashouts-table"
          rowKey={(row, n) => `${row.cashoutId ?? n}-${row.createdOn}`}
          columns={[
            { header: t("columns.date"), cell: (row) => localDateTime(row.createdOn, locale) },
            { header: t("columns.amount"), cell: (row) => money(row.amount), numeric: true, lead: 2 },
            { header: t("columns.cancelled"), cell: (row) => money(row.cancelledAmount), numeric: true },
            { header: t("columns.paid"), cell: (row) => money(row.paidAmount), numeric: true },
            { header: t("columns.status"), cell: (row) => statusText(row.status), lead: 1 },
          ]}
        />
      )}
    </section>
  );
}

const GAME_COLUMNS = ["initialBalance", "bet", "buyIn", "payouts", "win", "closingBalance"] as const;

type GameTab = "casino" | "remote";
const GAME_TABS: readonly GameTab[] = ["casino", "remote"];

/** Game history in a period, newest first: casino rounds, or the remote (third-party) games. */
export function GameHistoryScreen() {
  const { t } = useTranslation("history");
  const locale = useLocale();
  const money = useMoney();
  const currency = useCurrency();
  const today = isoDay(new Date());
  const [range, setRange] = useState(() => defaultRange(1));
  const [tab, setTab] = useState<GameTab>("casino");
  const [triggerCasino, casino] = useLazyGameHistoryQuery();
  const [triggerRemote, remote] = useLazyRemoteGamesHistoryQuery();
  const problem = rangeProblem(range.start, range.end, today);
  const result = tab === "casino" ? casino : remote;

  function show(which: GameTab = tab) {
    const request = { currency, startDate: requestDate(range.start), endDate: requestDate(range.end), limit: GAME_LIMIT, index: 0 };
    void (which === "casino" ? triggerCasino(request, false) : triggerRemote(request, false));
  }

  useShowOnArrival(currency, show);

  function choose(which: GameTab) {
    setTab(which);
    if (which !== tab && !problem) show(which);
  }

  // `currentData`, as in the transaction history: a failed or pending request shows no old rounds.
  const data: GameHistoryResponse | RemoteGamesResponse | undefined = result.isFetching ? undefined : result.currentData;
  const casinoRows = useMemo(() => [...(casino.currentData?.values ?? [])].reverse(), [casino.currentData]);
  const remoteRows = useMemo(() => [...(remote.currentData?.values ?? [])].reverse(), [remote.currentData]);
  const rows = tab === "casino" ? casinoRows : remoteRows;
  const failed = result.isError && !result.isFetching ? toAppError(result.error).message : data?.success === false ? data.description : null;
  const counted = tab === "casino" ? !!casino.currentData?.total : true;
  const empty = !!data && !failed && (!counted || rows.length === 0);

  return (
    <section className="screen">
      <h1 className="screen__title">{t("games.title")}</h1>
      <div className="tabs history__tabs" role="tablist" aria-label={t("games.title")}>
        {GAME_TABS.map((which) => (
          <button
            key={which}
            type="button"
            role="tab"
            className="provider-chip"
            aria-selected={tab === which}
            data-testid={`history-tab-${which}`}
            onClick={() => choose(which)}
          >
            {t(`games.tabs.${which}`)}
          </button>
        ))}
      </div>
      <RangeForm
        range={range}
        today={today}
        onRange={setRange}
        problem={problem}
        rangeMessage={t("dates.gameRange")}
        busy={result.isFetching}
        onShow={() => show()}
      />
      {failed && (
        <p className="history__error" role="alert">
          {failed}
        </p>
      )}
      {empty && (
        <p className="history__empty" data-testid="history-empty">
          {t("empty")}
        </p>
      )}
      {!empty && !result.isFetching && tab === "casino" && casinoRows.length > 0 && (
        <PagedTable
          rows={casinoRows}
          sizes={GAME_PAGE_SIZES}
          testId="history-games-table"
          rowKey={(row, n) => `${row.from}-${n}`}
          columns={[
            { header: t("columns.from"), cell: (row) => localDateTime(row.from, locale) },
            { header: t("columns.to"), cell: (row) => localDateTime(row.to, locale) },
            { header: t("columns.game"), cell: (row) => row.name, lead: 1, wide: true },
            ...GAME_COLUMNS.map((column) => ({
              header: t(`columns.${column}`),
              cell: (row: GameHistoryRow) => money(moneyFromText(row[column])),
              numeric: true,
              lead: column === "win" ? (2 as const) : undefined,
            })),
          ]}
        />
      )}
      {!empty && !result.isFetching && tab === "remote" && remoteRows.length > 0 && (
        <PagedTable
          rows={remoteRows}
          sizes={GAME_PAGE_SIZES}
          testId="history-remote-table"
          rowKey={(row: RemoteGame, n) => `${row.date}-${n}`}
          columns={[
            { header: t("columns.date"), cell: (row) => localDateTime(row.date, locale) },
            { header: t("columns.game"), cell: (row) => row.gameName, lead: 1, wide: true },
            { header: t("columns.provider"), cell: (row) => row.provider },
            { header: t("columns.bet"), cell: (row) => money(row.bet), numeric: true },
            { header: t("columns.win"), cell: (row) => money(row.win), numeric: true, lead: 2 },
          ]}
        />
      )}
    </section>
  );
}
