import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import { ChangesDiff } from "../../components/ChangesDiff";
import { ErrorNotice } from "../../components/ErrorNotice";
import { ReasonField } from "../../components/ReasonField";
import { useErrorText } from "../../lib/errorText";
import { shortVersion, useFormats } from "../../lib/format";
import { reasonValid } from "../../lib/rules";
import { speaksPlatform, type CanaryChoice } from "../../lib/writeFlow";
import { useStartCanaryMutation } from "./canaryApi";
import {
  DEFAULT_STEPS, DEFAULT_THRESHOLDS, readSteps, readThresholds, stepTexts, thresholdTexts, THRESHOLD_NAMES, type ThresholdName,
} from "./rules";
import { StepsEditor } from "./StepsEditor";
import { ThresholdsEditor } from "./ThresholdsEditor";
import type { Started } from "./types";

const refused = (fields: ConsoleError["fields"]): ConsoleError => ({ ...toConsoleError(undefined), status: 422, code: "INVALID", fields });

/**
 * The previewed change started as a canary instead of applied at once: its steps, its thresholds
 * (folded, defaults shown) and the write's reason. Nothing typed is lost on a refusal; a 409 on the
 * configuration version goes back to the change to preview it again from the current one.
 */
export function StartCanary({ skin, upstream, url, flow, onBack, onClose }: CanaryChoice) {
  const { t } = useTranslation("canary");
  const common = useTranslation().t;
  const text = useErrorText();
  const [steps, setSteps] = useState(() => stepTexts(DEFAULT_STEPS));
  const [thresholds, setThresholds] = useState(() => thresholdTexts(DEFAULT_THRESHOLDS));
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  const [started, setStarted] = useState<Started | null>(null);
  const [start, { isLoading }] = useStartCanaryMutation();
  const plan = readSteps(steps);
  const read = readThresholds(thresholds);
  // Client checks show once the operator tried to start; the gateway's as they come.
  const tried = problem !== null;

  async function submit() {
    const override = speaksPlatform(flow.preview) ? null : flow.override;
    const fields = [
      ...(plan.problems.size > 0 || plan.list ? [{ field: "steps", code: "STEPS_INVALID", message: "" }] : []),
      ...read.invalid.map((name) => ({ field: `thresholds.${name}`, code: "THRESHOLD_INVALID", message: "" })),
      ...(reasonValid(flow.reason) ? [] : [{ field: "reason", code: "REASON_TOO_SHORT", message: "" }]),
      ...(override && !reasonValid(override.reason) ? [{ field: "override.reason", code: "REASON_TOO_SHORT", message: "" }] : []),
    ];
    if (fields.length > 0) return setProblem(refused(fields));
    const answer = await start({
      skin, upstream, url, baseVersion: flow.baseVersion, reason: flow.reason.trim(), steps: plan.steps,
      thresholds: read.thresholds, ...(override && { override: { reason: override.reason.trim() } }),
    });
    setProblem(answer.error ? toConsoleError(answer.error) : null);
    if (answer.data) setStarted(answer.data);
  }

  if (started) return <StartedStep started={started} onClose={onClose} />;
  const conflict = problem?.conflict ?? null;
  const serverSteps = problem?.fields.filter((item) => item.field.startsWith("steps")) ?? [];
  const thresholdErrors = Object.fromEntries(THRESHOLD_NAMES.map((name) => [name, [
    ...(tried && read.invalid.includes(name) ? [common("fields.THRESHOLD_INVALID")] : []),
    ...errorsOf(problem, `thresholds.${name}`).filter(() => !read.invalid.includes(name)).map(text.field),
  ]])) as Record<ThresholdName, string[]>;
  return (
    <div className="canary-start" data-testid="canary-start">
      <p>{t("start.intro")}</p>
      {flow.preview && <ChangesDiff changes={flow.preview.changes} caption={t("start.diffCaption")} />}
      <StepsEditor steps={steps} onSteps={setSteps} problems={tried ? plan.problems : new Map()}
                   listProblem={tried ? plan.list : null}
                   errors={plan.problems.size === 0 && !plan.list ? serverSteps.map(text.field) : []} />
      <ThresholdsEditor values={thresholds} onValues={setThresholds} errors={thresholdErrors} />
      <ReasonField value={flow.reason} onValue={flow.setReason} errors={errorsOf(problem, "reason").map(text.field)} />
      {conflict && (
        <div className="notice notice--warn" role="alert" data-testid="canary-conflict">
          <p>{common("write.conflictAny", { version: shortVersion(conflict.current) })}</p>
          <button type="button" className="button" onClick={() => { flow.restart(conflict.current); onBack(); }}>
            {common("write.restart")}
          </button>
        </div>
      )}
      {!conflict && <ErrorNotice error={problem} shownFields={shownFields(serverSteps)} />}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onBack} data-testid="canary-back">
          {t("start.back")}
        </button>
        <button type="button" className="button button--primary" disabled={isLoading} data-testid="canary-submit"
                onClick={() => void submit()}>
          {isLoading ? t("start.starting") : t("start.submit")}
        </button>
      </div>
    </div>
  );
}

/** The fields this form shows beside their inputs (the others are listed in the notice: the URL's, the override's). */
const shownFields = (steps: ConsoleError["fields"]) => ["reason", ...THRESHOLD_NAMES.map((name) => `thresholds.${name}`), ...steps.map((s) => s.field)];

/** Started: where to watch it; or waiting for a second operator's approval (skins that need one). */
function StartedStep({ started, onClose }: { started: Started; onClose: () => void }) {
  const { t } = useTranslation("canary");
  const common = useTranslation().t;
  const format = useFormats();
  return (
    <div className="canary-start" data-testid="canary-started">
      {"canary" in started ? (
        <p className="notice notice--ok" role="status">
          {t("start.started", { share: format.percent(started.canary.share) })}{" "}
          <Link to={`/canaries/${encodeURIComponent(started.canary.id)}`} data-testid="canary-watch">{t("start.watch")}</Link>
        </p>
      ) : (
        <p className="notice notice--warn" role="status">{t("start.approval")}</p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button button--primary" onClick={onClose} data-testid="write-done">
          {common("write.done")}
        </button>
      </div>
    </div>
  );
}
