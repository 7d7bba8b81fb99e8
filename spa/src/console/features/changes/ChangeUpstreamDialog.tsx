import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf } from "../../api/errors";
import type { Skin, Upstream } from "../../api/types";
import { ConsoleDialog } from "../../components/ConsoleDialog";
import { TextField } from "../../components/TextField";
import { TimeField } from "../../components/TimeField";
import { WriteSteps } from "../../components/WriteSteps";
import { useErrorText } from "../../lib/errorText";
import { baseUrlProblem } from "../../lib/rules";
import { typedTimeToIso } from "../../lib/typedTime";
import { useWriteFlow, type CanaryChoice } from "../../lib/writeFlow";
import { AllowedHosts } from "./AllowedHosts";
import { useApplyChangeMutation, usePreviewChangeMutation } from "./changesApi";

interface ChangeUpstreamDialogProps {
  skin: Skin;
  upstream: Upstream;
  /** The configuration version the overview showed when the operator chose to change. */
  baseVersion: string;
  onClose: () => void;
  /** Given, the preview offers "Start as canary" beside Apply, and this draws its form (the app composes it). */
  canary?: (choice: CanaryChoice) => ReactNode;
}

/** Point one skin's upstream at a new base URL (or back to the file's), previewed before anything changes. */
export function ChangeUpstreamDialog({ skin, upstream, baseVersion, onClose, canary }: ChangeUpstreamDialogProps) {
  const { t, i18n } = useTranslation("changes");
  const text = useErrorText();
  const [at, setAt] = useState("");
  const atIso = typedTimeToIso(at, i18n.resolvedLanguage ?? i18n.language);
  const [url, setUrl] = useState(upstream.url);
  const [backToFile, setBackToFile] = useState(false);
  const [urlProblem, setUrlProblem] = useState<string | null>(null);
  const [asCanary, setAsCanary] = useState(false);
  const [previewChange] = usePreviewChangeMutation();
  const [applyChange] = useApplyChangeMutation();
  const target = () => ({ skin: skin.id, upstream: upstream.name, url: backToFile ? null : url.trim() });
  const flow = useWriteFlow(baseVersion, {
    preview: (base) => previewChange({ ...target(), baseVersion: base }),
    apply: (base, reason, override) => applyChange({
      ...target(), baseVersion: base, reason, ...(override && { override }), ...(atIso && { at: Date.parse(atIso) / 1000 }),
    }),
  });

  function edit(next: () => void) {
    next();
    setUrlProblem(null);
    flow.discardPreview();
  }

  function submitPreview(event: FormEvent) {
    event.preventDefault();
    const problem = backToFile ? null : baseUrlProblem(url);
    setUrlProblem(problem);
    if (problem === null) void flow.runPreview();
  }

  const urlErrors = [
    ...(urlProblem ? [text.field({ field: "url", code: urlProblem, message: "" })] : []),
    ...errorsOf(flow.problem, "url").map(text.field),
  ];
  const editable = !flow.applied && !asCanary;
  return (
    <ConsoleDialog title={t(asCanary ? "canaryTitle" : "title", { upstream: upstream.name, skin: skin.name })} onClose={onClose} wide
                   testId="change-dialog">
      {editable && (
        <form className="change-form" onSubmit={submitPreview} noValidate>
          <TextField name="url" type="url" label={t("url")} value={backToFile ? (upstream.fileUrl ?? "") : url}
                     disabled={backToFile} onValue={(value) => edit(() => setUrl(value))} errors={urlErrors}
                     hint={t("urlHint")} spellCheck={false} autoComplete="off" data-autofocus />
          <AllowedHosts hosts={skin.allowedHosts} />
          {upstream.overridden && (
            <label className="check">
              <input type="checkbox" checked={backToFile} data-testid="back-to-file"
                     onChange={(event) => edit(() => setBackToFile(event.target.checked))} />
              {t("backToFile", { url: upstream.fileUrl })}
            </label>
          )}
          <TimeField name="at" label={t("write.scheduleFor", { ns: "common" })} value={at} unread={atIso === null}
                     onValue={(value) => setAt(value)} errors={errorsOf(flow.problem, "at").map(text.field)} />
          {skin.approval && (
            <p className="notice notice--warn" data-testid="change-needs-approval">{t("write.needsApproval", { ns: "common" })}</p>
          )}
          <button type="submit" className="button" disabled={flow.busy !== null || atIso === null} data-testid="change-preview">
            {flow.busy === "preview" ? t("previewing") : t("preview")}
          </button>
        </form>
      )}
      {asCanary && canary ? (
        canary({ skin: skin.id, upstream: upstream.name, url: target().url ?? upstream.fileUrl ?? "", flow, onBack: () => setAsCanary(false), onClose })
      ) : (
        <WriteSteps flow={flow} editFields={["url", "at"]} onClose={onClose} onCanary={canary && (() => setAsCanary(true))} />
      )}
    </ConsoleDialog>
  );
}
