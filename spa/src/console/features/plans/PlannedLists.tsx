import { useState } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import type { Approval, Planned, Scheduled } from "../../api/types";
import { ErrorNotice } from "../../components/ErrorNotice";
import { ReasonField } from "../../components/ReasonField";
import { useErrorText } from "../../lib/errorText";
import { useFormats } from "../../lib/format";
import { isoOf } from "./MaintenanceSection";
import { useCancelScheduledMutation, useDecideApprovalMutation } from "./plansApi";

type Act = (reason: string) => Promise<{ error?: unknown }>;
type ActName = "cancel" | "approve" | "reject";
type State = Scheduled["state"] | Approval["state"];

/** What a planned change does, in one line: `aurora api -> https://...`, a rollback's version. */
function What({ planned }: { planned: Planned }) {
  const { t } = useTranslation("plans");
  return (
    <span className="plan-what">
      {t(`kind.${planned.kind}`)} · {planned.skin}
      {planned.upstream ? ` ${planned.upstream}` : ""}
      {planned.url ? ` → ${planned.url}` : ""}
    </span>
  );
}

/** What became of it, in the operator's language: the gateway writes `applied <version>`, `started <canary>`,
 * `cancelled by <who>` (the state and "ended by" say it already) or `<CODE>: <words>` (a known code translated). */
function Outcome({ said }: { said: string }) {
  const { t } = useTranslation("plans");
  const text = useErrorText();
  const [head, ...rest] = said.split(" ");
  if (head === "applied" || head === "started") return <>{t(`outcome.${head}`, { what: rest.join(" ") })}</>;
  if (head === "cancelled") return null;
  const code = said.split(":")[0] ?? "";
  const words = text.error({ status: 409, code, message: said, requestId: null, fields: [], needs: null, retryAfterS: null, conflict: null });
  return <>{words}</>;
}

/** One planned change: what, when, who and why, its state and outcome, and the buttons that decide it (with a reason). */
function PlannedRow({ planned, when, state, acts }: { planned: Planned; when: number | null; state: State; acts: [ActName, Act][] }) {
  const { t } = useTranslation("plans");
  const text = useErrorText();
  const format = useFormats();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  async function run(act: Act) {
    const answer = await act(reason);
    setProblem(answer.error ? toConsoleError(answer.error) : null);
  }
  return (
    <li className="card plan-row" data-testid={`planned-${planned.id}`}>
      <p><What planned={planned} /></p>
      <p className="plan-row__facts">
        {when !== null && <>{t("at", { at: format.dateTime(isoOf(when)) })} · </>}
        {t("askedBy", { by: planned.by })} · <q>{planned.reason}</q>
      </p>
      <p>
        <span className={`badge badge--${state}`} data-testid="planned-state">{t(`state.${state}`)}</span>
        {planned.outcome && (
          <span className="plan-row__outcome" data-testid="planned-outcome">
            {" "}
            <Outcome said={planned.outcome} />
          </span>
        )}
        {planned.endedBy && <span> · {t("endedBy", { by: planned.endedBy })}</span>}
      </p>
      {acts.length > 0 && (
        <>
          <ReasonField value={reason} onValue={setReason} errors={errorsOf(problem, "reason").map(text.field)} />
          <ErrorNotice error={problem} shownFields={["reason"]} />
          <div className="dialog-actions">
            {acts.map(([key, act]) => (
              <button key={key} type="button" className="button" data-testid={`planned-${key}`} onClick={() => void run(act)}>
                {t(`act.${key}`)}
              </button>
            ))}
          </div>
        </>
      )}
    </li>
  );
}

export function ScheduledList({ items, mayChange }: { items: Scheduled[]; mayChange: boolean }) {
  const { t } = useTranslation("plans");
  const [cancel] = useCancelScheduledMutation();
  if (items.length === 0) return <p>{t("scheduled.none")}</p>;
  return (
    <ul className="plan-list" data-testid="scheduled-list">
      {items.map((item) => (
        <PlannedRow key={item.id} planned={item} when={item.at} state={item.state}
                    acts={mayChange && item.state === "pending" ? [["cancel", (reason) => cancel({ id: item.id, reason })]] : []} />
      ))}
    </ul>
  );
}

export function ApprovalList({ items, mayChange }: { items: Approval[]; mayChange: boolean }) {
  const { t } = useTranslation("plans");
  const [decide] = useDecideApprovalMutation();
  if (items.length === 0) return <p>{t("approvals.none")}</p>;
  return (
    <ul className="plan-list" data-testid="approval-list">
      {items.map((item) => (
        <PlannedRow key={item.id} planned={item} when={item.at} state={item.state}
                    acts={mayChange && item.state === "pending" ? [
                      ["approve", (reason) => decide({ id: item.id, decision: "approve", reason })],
                      ["reject", (reason) => decide({ id: item.id, decision: "reject", reason })],
                    ] : []} />
      ))}
    </ul>
  );
}
