import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf } from "../../api/errors";
import type { Skin } from "../../api/types";
import { ConsoleDialog } from "../../components/ConsoleDialog";
import { TextField } from "../../components/TextField";
import { WriteSteps } from "../../components/WriteSteps";
import { useErrorText } from "../../lib/errorText";
import { realityMinutes } from "../../lib/rules";
import { useWriteFlow } from "../../lib/writeFlow";
import { useApplySettingMutation, usePreviewSettingMutation } from "./changesApi";

interface ChangeRealityDialogProps {
  skin: Skin;
  /** The configuration version the overview showed when the operator chose to change. */
  baseVersion: string;
  onClose: () => void;
}

/** Set how often a skin's players see a reality check (or turn it off), previewed and versioned like an upstream. */
export function ChangeRealityDialog({ skin, baseVersion, onClose }: ChangeRealityDialogProps) {
  const { t } = useTranslation("changes");
  const text = useErrorText();
  const [typed, setTyped] = useState(skin.realityCheckMinutes === null ? "" : String(skin.realityCheckMinutes));
  const [problem, setProblem] = useState<string | null>(null);
  const [previewSetting] = usePreviewSettingMutation();
  const [applySetting] = useApplySettingMutation();
  const edit = (base: string) => {
    const read = realityMinutes(typed);
    return { skin: skin.id, setting: "reality_check_minutes" as const, value: "value" in read ? read.value : null, baseVersion: base };
  };
  const flow = useWriteFlow(baseVersion, {
    preview: (base) => previewSetting(edit(base)),
    apply: (base, reason) => applySetting({ ...edit(base), reason }),
  });

  function submitPreview(event: FormEvent) {
    event.preventDefault();
    const read = realityMinutes(typed);
    setProblem("problem" in read ? read.problem : null);
    if ("value" in read) void flow.runPreview();
  }

  const errors = [
    ...(problem ? [text.field({ field: "value", code: problem, message: "" })] : []),
    ...errorsOf(flow.problem, "value").map(text.field),
  ];
  return (
    <ConsoleDialog title={t("reality.title", { skin: skin.name })} onClose={onClose} testId="reality-dialog">
      {!flow.applied && (
        <form className="change-form" onSubmit={submitPreview} noValidate>
          <TextField name="value" inputMode="decimal" label={t("reality.minutes")} value={typed} hint={t("reality.hint")}
                     errors={errors} autoComplete="off" data-autofocus
                     onValue={(value) => { setTyped(value); setProblem(null); flow.discardPreview(); }} />
          <button type="submit" className="button" disabled={flow.busy !== null} data-testid="reality-preview">
            {flow.busy === "preview" ? t("previewing") : t("preview")}
          </button>
        </form>
      )}
      <WriteSteps flow={flow} editFields={["value"]} onClose={onClose} />
    </ConsoleDialog>
  );
}
