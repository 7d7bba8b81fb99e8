import { useTranslation } from "react-i18next";

import { TextField } from "../../components/TextField";
import { useFormats } from "../../lib/format";
import { DEFAULT_THRESHOLDS, THRESHOLD_NAMES, thresholdTexts, type ThresholdName, type ThresholdTexts } from "./rules";

interface ThresholdsEditorProps {
  values: ThresholdTexts;
  onValues: (values: ThresholdTexts) => void;
  /** Translated errors per threshold (client checks and the gateway's `thresholds.<name>`). */
  errors: Partial<Record<ThresholdName, string[]>>;
}

const DEFAULT_TEXTS = thresholdTexts(DEFAULT_THRESHOLDS);

/**
 * What a check fails on, folded away ("advanced"): the defaults are filled in and said beside each
 * field; a field in error unfolds it, so no refusal is hidden.
 */
export function ThresholdsEditor({ values, onValues, errors }: ThresholdsEditorProps) {
  const { t } = useTranslation("canary");
  const format = useFormats();
  const wrong = THRESHOLD_NAMES.some((name) => (errors[name] ?? []).length > 0);
  const changed = THRESHOLD_NAMES.some((name) => values[name] !== DEFAULT_TEXTS[name]);
  return (
    <details className="canary-thresholds" open={wrong || undefined} data-testid="canary-thresholds">
      <summary>{t(changed ? "thresholds.summaryChanged" : "thresholds.summary")}</summary>
      <div className="canary-thresholds__fields">
        {THRESHOLD_NAMES.map((name) => (
          <TextField key={name} name={`threshold-${name}`} label={t(`thresholds.names.${name}`)} value={values[name]}
                     onValue={(value) => onValues({ ...values, [name]: value })} inputMode="decimal" autoComplete="off"
                     hint={t(`thresholds.hints.${name}`, { value: format.number(Number(DEFAULT_TEXTS[name]), 2) })}
                     errors={errors[name] ?? []} />
        ))}
      </div>
    </details>
  );
}
