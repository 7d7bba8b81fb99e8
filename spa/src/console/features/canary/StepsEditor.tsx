import { useTranslation } from "react-i18next";

import { TextField } from "../../components/TextField";
import { MAX_STEPS, type StepProblem, type StepText } from "./rules";

interface StepsEditorProps {
  steps: StepText[];
  onSteps: (steps: StepText[]) => void;
  /** Each step's problem found here (index -> code), and the list's own. */
  problems: Map<number, StepProblem>;
  listProblem: "NO_STEPS" | "TOO_MANY" | null;
  /** The gateway's refusals of the steps, translated. */
  errors: string[];
}

/** The canary's steps: each a share of new players (percent) held for some minutes; the last sends all of them. */
export function StepsEditor({ steps, onSteps, problems, listProblem, errors }: StepsEditorProps) {
  const { t } = useTranslation("canary");
  const set = (index: number, part: keyof StepText) => (value: string) =>
    onSteps(steps.map((step, at) => (at === index ? { ...step, [part]: value } : step)));
  const shown = [...(listProblem ? [t(`steps.problems.${listProblem}`, { max: MAX_STEPS })] : []), ...errors];
  return (
    <fieldset className="canary-steps" data-testid="canary-steps">
      <legend>{t("steps.legend")}</legend>
      <p className="field__hint">{t("steps.hint")}</p>
      <ol className="canary-steps__list">
        {steps.map((step, index) => {
          const problem = problems.get(index);
          const onShare = problem && problem !== "HOLD_TOO_SHORT" ? [t(`steps.problems.${problem}`)] : [];
          const onHold = problem === "HOLD_TOO_SHORT" ? [t("steps.problems.HOLD_TOO_SHORT")] : [];
          return (
            // Steps have no identity of their own but their place: removing one renumbers the rest.
            <li key={index} className="canary-steps__step" data-testid="canary-step">
              <span className="canary-steps__n">{t("steps.n", { n: index + 1 })}</span>
              <TextField name={`step-${index}-share`} label={t("steps.share")} value={step.percent} onValue={set(index, "percent")}
                         inputMode="decimal" autoComplete="off" errors={onShare} />
              <TextField name={`step-${index}-hold`} label={t("steps.hold")} value={step.minutes} onValue={set(index, "minutes")}
                         inputMode="decimal" autoComplete="off" errors={onHold} />
              <button type="button" className="button button--quiet" disabled={steps.length <= 1}
                      aria-label={t("steps.removeLabel", { n: index + 1 })} data-testid="canary-step-remove"
                      onClick={() => onSteps(steps.filter((_, at) => at !== index))}>
                {t("steps.remove")}
              </button>
            </li>
          );
        })}
      </ol>
      {shown.length > 0 && <p className="field__error" data-testid="steps-error">{shown.join(" ")}</p>}
      <button type="button" className="button" disabled={steps.length >= MAX_STEPS} data-testid="canary-step-add"
              onClick={() => onSteps([...steps, { percent: "100", minutes: steps[steps.length - 1]?.minutes ?? "5" }])}>
        {t("steps.add")}
      </button>
    </fieldset>
  );
}
