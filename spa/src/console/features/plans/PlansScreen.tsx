import { useTranslation } from "react-i18next";

import { toConsoleError } from "../../api/errors";
import type { Skin } from "../../api/types";
import { ErrorNotice } from "../../components/ErrorNotice";
import { selectOperator } from "../../lib/session/sessionSlice";
import { useConsoleSelector, useSignedIn } from "../../lib/store/hooks";
import { SkinMaintenance } from "./MaintenanceSection";
import { ApprovalList, ScheduledList } from "./PlannedLists";
import { useGetApprovalsQuery, useGetMaintenanceQuery, useGetScheduledQuery } from "./plansApi";

import "./plans.css";

const REFRESH_MS = 5000;

/**
 * What is planned ahead: each skin's maintenance (set now or for later, ended), the changes
 * scheduled for a time (cancelled with a reason), and the changes waiting for a second operator
 * (approved or rejected with a reason; one's own is not theirs to approve).
 */
export function PlansScreen({ skins }: { skins: Skin[] }) {
  const { t } = useTranslation("plans");
  const polling = { pollingInterval: useSignedIn() ? REFRESH_MS : 0 };
  const role = useConsoleSelector(selectOperator)?.role ?? "viewer";
  const mayChange = role !== "viewer";
  const maintenance = useGetMaintenanceQuery(undefined, polling);
  const scheduled = useGetScheduledQuery(undefined, polling);
  const approvals = useGetApprovalsQuery(undefined, polling);
  const failed = [maintenance, scheduled, approvals].find((query) => query.isError);
  return (
    <section className="view" aria-labelledby="plans-title" data-testid="plans">
      <div className="view-head">
        <h1 id="plans-title">{t("title")}</h1>
        <p className="view-head__facts">{t("intro")}</p>
      </div>
      {failed && <ErrorNotice error={toConsoleError(failed.error)} />}
      <h2>{t("approvals.title")}</h2>
      {approvals.data && <ApprovalList items={approvals.data.approvals} mayChange={mayChange} />}
      <h2>{t("scheduled.title")}</h2>
      <p className="field__hint">{t("scheduled.hint")}</p>
      {scheduled.data && <ScheduledList items={scheduled.data.scheduled} mayChange={mayChange} />}
      <h2>{t("maintenance.title")}</h2>
      <p className="field__hint">{t("maintenance.hint")}</p>
      <div className="plan-skins">
        {mayChange && skins.map((skin) => (
          <SkinMaintenance key={skin.id} skin={skin} window={maintenance.data?.skins[skin.id]} />
        ))}
      </div>
    </section>
  );
}
