import { useTranslation } from "react-i18next";

import { errorsOf, type ConsoleError } from "../api/errors";
import type { Applied, Deferred } from "../api/types";
import { useErrorText } from "../lib/errorText";
import { shortVersion, useFormats } from "../lib/format";
import { speaksPlatform, type WriteFlow } from "../lib/writeFlow";
import { ChangesDiff } from "./ChangesDiff";
import { ContractReport } from "./ContractReport";
import { ErrorNotice } from "./ErrorNotice";
import { LiveReport } from "./LiveReport";
import { ProbeReport } from "./ProbeReport";
import { ReasonField } from "./ReasonField";

interface WriteStepsProps {
  flow: WriteFlow;
  /** Fields the edit above shows beside its inputs (their 422s are not repeated here). */
  editFields?: string[];
  onClose: () => void;
  /** Offered beside Apply: start the previewed change as a canary instead (a change of upstream). */
  onCanary?: () => void;
}

/**
 * The steps after the edit, shared by a change and a rollback: the preview (validation, probes,
 * diff), the reason, applying, and the answer: live on N/M, or the other change's diff on a 409.
 */
export function WriteSteps({ flow, editFields = [], onClose, onCanary }: WriteStepsProps) {
  const { t } = useTranslation();
  const text = useErrorText();
  const { preview, applied, problem } = flow;
  const conflict = problem?.conflict ?? null;

  if (applied) {
    return "version" in applied ? <AppliedStep applied={applied} onClose={onClose} /> : <DeferredStep deferred={applied} onClose={onClose} />;
  }

  const probes = preview ? (preview.probes ?? (preview.probe ? [preview.probe] : [])) : [];
  const checks = preview ? (preview.checks ?? (preview.check ? [preview.check] : [])) : [];
  const unreachable = probes.some((probe) => !probe.ok);
  const unchecked = !speaksPlatform(preview) && flow.override === null;
  return (
    <div className="write-steps">
      {conflict && <ConflictNotice conflict={conflict} onRestart={() => flow.restart(conflict.current)} />}
      {preview && !conflict && (
        <div className="preview" data-testid="write-preview">
          <h3>{t("write.previewTitle")}</h3>
          {preview.stale && (
            <div className="notice notice--warn" role="status" data-testid="write-stale">
              <p>{t("write.stale", { version: shortVersion(preview.current) })}</p>
              <button type="button" className="button" onClick={() => flow.restart(preview.current)}>
                {t("write.restart")}
              </button>
            </div>
          )}
          {preview.fileDiffers && <p className="notice notice--warn">{t("write.fileDiffers")}</p>}
          <ChangesDiff changes={preview.changes} caption={t("write.diffCaption")} />
          <ProbeReport probes={probes} />
          {unreachable && <p className="notice notice--error" data-testid="write-unreachable">{t("write.unreachable")}</p>}
          <ContractReport checks={checks} />
          {!unreachable && !speaksPlatform(preview) && <ContractOverride flow={flow} />}
          <ReasonField value={flow.reason} onValue={flow.setReason} errors={errorsOf(problem, "reason").map(text.field)} />
        </div>
      )}
      {!conflict && (
        <ErrorNotice error={problem} shownFields={[...editFields, ...(preview ? ["reason", "override.reason"] : [])]} />
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {t("actions.cancel")}
        </button>
        {preview && !conflict && onCanary && (
          <button type="button" className="button" data-testid="write-canary"
                  disabled={flow.busy !== null || unreachable || unchecked || preview.stale} onClick={onCanary}>
            {t("write.canary")}
          </button>
        )}
        {preview && !conflict && (
          <button type="button" className="button button--primary" data-testid="write-apply"
                  disabled={flow.busy !== null || unreachable || unchecked || preview.stale}
                  onClick={() => void flow.runApply()}>
            {flow.busy === "apply" ? t("write.applying") : t("write.apply")}
          </button>
        )}
      </div>
    </div>
  );
}

/** A new base URL that fails the platform's check is applied only when the operator says so, and why. */
function ContractOverride({ flow }: { flow: WriteFlow }) {
  const { t } = useTranslation();
  const text = useErrorText();
  const { override } = flow;
  return (
    <div className="override" data-testid="contract-override">
      <p className="notice notice--error">{t("contract.refused")}</p>
      <label className="check">
        <input type="checkbox" checked={override !== null} data-testid="override-check"
               onChange={(event) => flow.setOverride(event.target.checked ? { reason: "" } : null)} />
        {t("contract.override")}
      </label>
      {override !== null && (
        <ReasonField value={override.reason} onValue={(reason) => flow.setOverride({ reason })} name="override-reason"
                     label={t("contract.overrideReason")} errors={errorsOf(flow.problem, "override.reason").map(text.field)} />
      )}
    </div>
  );
}

/** The answer of an applied write: where it is live, and what changed. */
function AppliedStep({ applied, onClose }: { applied: Applied; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="write-steps" data-testid="write-applied">
      <LiveReport applied={applied} />
      {applied.fileDiffers && <p className="notice notice--warn">{t("write.fileDiffers")}</p>}
      <ChangesDiff changes={applied.changes} caption={t("write.appliedCaption")} />
      <div className="dialog-actions">
        <button type="button" className="button button--primary" onClick={onClose} data-testid="write-done">
          {t("write.done")}
        </button>
      </div>
    </div>
  );
}

/** A write kept for later (202): scheduled for its time, or waiting for a second operator's approval. */
function DeferredStep({ deferred, onClose }: { deferred: Deferred; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormats();
  const at = "scheduled" in deferred ? deferred.scheduled.at : null;
  return (
    <div className="write-steps" data-testid="write-deferred">
      <p className="notice notice--ok" role="status">
        {at !== null ? t("write.scheduled", { at: format.dateTime(new Date(at * 1000).toISOString()) }) : t("write.waiting")}
      </p>
      <div className="dialog-actions">
        <button type="button" className="button button--primary" onClick={onClose} data-testid="write-done">
          {t("write.done")}
        </button>
      </div>
    </div>
  );
}

/** A 409: the skins that moved, who changed what and when, and the way to start again from the version now current. */
function ConflictNotice({ conflict, onRestart }: { conflict: NonNullable<ConsoleError["conflict"]>; onRestart: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="notice notice--warn" role="alert" data-testid="write-conflict">
      <p>
        {conflict.skins.length > 0
          ? t("write.conflict", { version: shortVersion(conflict.current), skins: conflict.skins.join(", ") })
          : t("write.conflictAny", { version: shortVersion(conflict.current) })}
      </p>
      <ChangesDiff changes={conflict.changes} caption={t("write.conflictCaption")} testId="conflict-diff" />
      <button type="button" className="button" onClick={onRestart} data-testid="write-restart">
        {t("write.restart")}
      </button>
    </div>
  );
}
