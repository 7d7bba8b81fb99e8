import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { useGetConfigQuery } from "../lib/config/configApi";
import { selectRealityAnswered } from "../lib/player/streamSlice";
import { useAnswerRealityMutation, useGetRealityQuery, type RealityFigures } from "../lib/session/realityApi";
import { useLogout } from "../lib/session/useLogout";
import { useAppSelector } from "../lib/store/hooks";
import { formatMoney } from "../utils/money";
import { formatSessionTime } from "../utils/sessionTime";
import { Dialog } from "./Dialog";

/** While open, the check asks the gateway this often whether another tab answered it (the balance
 * stream says so at once; this is for a tab without the stream). */
const OPEN_POLL_MS = 10_000;
/** The game frame's view is paused (hidden) while a check is open over it. */
const PAUSED_CLASS = "reality-check-open";

/** The session's reality check: the gateway decides when one is due; every tab asks it again at
 * that moment by the gateway's clock, so all open it at once, and one answer closes it in all. */
export default function RealityCheck({ gameOpen }: { gameOpen: boolean }) {
  const answeredElsewhere = useAppSelector(selectRealityAnswered);
  const { data, fulfilledTimeStamp, refetch } = useGetRealityQuery();
  const [answer, answering] = useAnswerRealityMutation();
  const answered = answering.data ?? null;
  const open = data?.check && (answered === null || answered.answered < data.check.number) && answeredElsewhere < data.check.number ? data.check : null;
  const current = answered && (!data || answered.now > data.now) ? answered : data;

  useEffect(() => {
    if (!current?.everySeconds || fulfilledTimeStamp === undefined) return;
    if (open) {
      const timer = window.setInterval(() => void refetch(), OPEN_POLL_MS);
      return () => window.clearInterval(timer);
    }
    const every = current.everySeconds * 1000;
    const next = current.signedInAt + (Math.floor((current.now - current.signedInAt) / every) + 1) * every;
    const timer = window.setTimeout(() => void refetch(), next - current.now + 50);
    return () => window.clearTimeout(timer);
  }, [current, open, fulfilledTimeStamp, refetch]);

  useEffect(() => {
    if (answeredElsewhere > 0) void refetch();
  }, [answeredElsewhere, refetch]);

  useEffect(() => {
    if (!open) return;
    document.body.classList.add(PAUSED_CLASS);
    return () => document.body.classList.remove(PAUSED_CLASS);
  }, [open]);

  if (!open) return null;
  return <RealityDialog check={open} answer={() => answer()} gameOpen={gameOpen} />;
}

interface RealityDialogProps {
  check: RealityFigures;
  answer: () => Promise<unknown>;
  gameOpen: boolean;
}

function RealityDialog({ check, answer, gameOpen }: RealityDialogProps) {
  const { t } = useTranslation("account");
  const { data: config } = useGetConfigQuery();
  const navigate = useNavigate();
  const logout = useLogout();
  const symbol = config?.skin.currencySymbol ?? "";
  const money = (value: number | null, signed = false) =>
    value === null ? t("reality.unknown") : `${signed && value > 0 ? "+" : ""}${formatMoney(value, symbol)}`;
  const time = formatSessionTime(check.sessionSeconds);
  const rows: [string, string, string][] = [
    ["time", t("reality.time"), time],
    ["deposits", t("reality.deposits"), money(check.deposits)],
    ["withdrawals", t("reality.withdrawals"), money(check.withdrawals)],
    ["change", t("reality.change"), money(check.balanceChange, true)],
  ];
  const carryOn = () => void answer();
  return (
    <Dialog labelledBy="reality-title" onClose={carryOn} role="alertdialog" className="reality-check" testId="reality-check">
      <h2 id="reality-title">{t("reality.title")}</h2>
      <p>{t("reality.intro", { time })}</p>
      <dl className="reality-check__figures">
        {rows.map(([key, label, value]) => (
          <div key={key} className="reality-check__row" data-testid={`reality-${key}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {gameOpen && <p className="reality-check__paused">{t("reality.paused")}</p>}
      <div className="reality-check__actions">
        <button type="button" className="button button--primary" data-autofocus data-testid="reality-continue" onClick={carryOn}>
          {t("reality.continue")}
        </button>
        <button type="button" className="button button--ghost" data-testid="reality-history" onClick={() => void answer().then(() => navigate("/transactionhistory"))}>
          {t("reality.history")}
        </button>
        <button type="button" className="button button--ghost" data-testid="reality-logout" onClick={() => void answer().then(logout)}>
          {t("reality.logout")}
        </button>
      </div>
    </Dialog>
  );
}
