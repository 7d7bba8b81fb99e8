import { useTranslation } from "react-i18next";

import { useFormats } from "../../lib/format";
import { isLive, type Canary, type Outcome } from "./types";
import { VerdictCard } from "./VerdictCard";
import { useHoldText } from "./words";

type StepState = "done" | "current" | "next" | "ended" | "skipped";

function stepState(canary: Canary, index: number): StepState {
  if (index < canary.step) return "done";
  if (index > canary.step) return isLive(canary) ? "next" : "skipped";
  return isLive(canary) ? "current" : "ended";
}

const OUTCOMES: Outcome[] = ["passed", "failed", "too-few"];

/**
 * The canary's steps in order: each one's share and hold, where it stands (passed, running, to
 * come, where it ended), its checks counted by outcome, and each check's figures unfolded on demand.
 */
export function CanarySteps({ canary }: { canary: Canary }) {
  const { t } = useTranslation("canary");
  const format = useFormats();
  const hold = useHoldText();
  return (
    <ol className="canary-history" data-testid="canary-history">
      {canary.steps.map((step, index) => {
        const state = stepState(canary, index);
        const checks = canary.verdicts.filter((verdict) => verdict.step === index).reverse();
        const counts = OUTCOMES.map((outcome) => [outcome, checks.filter((c) => c.outcome === outcome).length] as const);
        return (
          <li key={index} className={`canary-history__step canary-history__step--${state}`} data-testid="canary-history-step"
              data-state={state}>
            <p className="canary-history__head">
              <strong>{t("history.step", { n: index + 1, share: format.percent(step.share) })}</strong>
              <span className="muted">{t("history.hold", { hold: hold(step.holdS) })}</span>
              <span className={`badge badge--step-${state}`}>{t(`history.states.${state}`, { state: t(`states.${canary.state}`) })}</span>
            </p>
            {checks.length > 0 && (
              <details>
                <summary>
                  {t("history.checks", { count: checks.length })}:{" "}
                  {counts.filter(([, n]) => n > 0).map(([outcome, n]) => `${n} ${t(`outcomes.${outcome}`)}`).join(", ")}
                </summary>
                {checks.map((verdict) => (
                  <VerdictCard key={verdict.at} verdict={verdict} thresholds={canary.thresholds} before={canary.before}
                               after={canary.after} />
                ))}
              </details>
            )}
          </li>
        );
      })}
    </ol>
  );
}
