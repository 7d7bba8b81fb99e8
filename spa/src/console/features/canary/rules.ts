/**
 * What a canary starts with and the rules its steps and thresholds keep: the gateway's
 * (`gateway/canary/model.py` defaults, the start's STEPS_INVALID and THRESHOLD_INVALID), checked
 * here before asking and again by the gateway. Operators type shares in percent, holds in minutes
 * and the p99 in milliseconds; the API takes shares 0..1 and seconds.
 */
import type { Step, Thresholds } from "./types";

export const MAX_STEPS = 10;
export const MIN_HOLD_S = 1;
export const MIN_CHECK_EVERY_S = 1;

/** 1 % -> 10 % -> 50 % -> 100 %, five minutes each: a bad upstream meets few players first. */
export const DEFAULT_STEPS: Step[] = [
  { share: 0.01, holdS: 300 },
  { share: 0.1, holdS: 300 },
  { share: 0.5, holdS: 300 },
  { share: 1, holdS: 300 },
];

/** Flagger's 99 % success and 500 ms p99, and the rest as docs/canary.md says why. */
export const DEFAULT_THRESHOLDS: Thresholds = {
  maxErrorShare: 0.01,
  maxRefusalRise: 0.05,
  maxP99S: 0.5,
  maxLoginDrop: 0.1,
  maxMoneyDrop: 0.02,
  minAnswers: 20,
  failedChecks: 3,
  checkEveryS: 10,
};

export type ThresholdName = keyof Thresholds;
export const THRESHOLD_NAMES = Object.keys(DEFAULT_THRESHOLDS) as ThresholdName[];

/** How each threshold is typed: a share in percent, a time in ms or s, or a count. */
export type Unit = "percent" | "ms" | "s" | "count";
export const UNITS: Record<ThresholdName, Unit> = {
  maxErrorShare: "percent",
  maxRefusalRise: "percent",
  maxP99S: "ms",
  maxLoginDrop: "percent",
  maxMoneyDrop: "percent",
  minAnswers: "count",
  failedChecks: "count",
  checkEveryS: "s",
};

/** A step as typed: its share in percent, its hold in minutes. */
export interface StepText {
  percent: string;
  minutes: string;
}

export type ThresholdTexts = Record<ThresholdName, string>;

/** A number as an operator types it, with a decimal comma or point; NaN for anything else. */
export function typedNumber(text: string): number {
  const cleaned = text.trim().replace(",", ".");
  return /^\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

const written = (value: number) => String(Number(value.toFixed(6)));

export const stepTexts = (steps: Step[]): StepText[] =>
  steps.map((step) => ({ percent: written(step.share * 100), minutes: written(step.holdS / 60) }));

const TO_TEXT: Record<Unit, (value: number) => string> = {
  percent: (value) => written(value * 100),
  ms: (value) => written(value * 1000),
  s: written,
  count: written,
};
const FROM_TEXT: Record<Unit, (value: number) => number> = {
  percent: (value) => value / 100,
  ms: (value) => value / 1000,
  s: (value) => value,
  count: (value) => value,
};

export const thresholdTexts = (thresholds: Thresholds): ThresholdTexts =>
  Object.fromEntries(THRESHOLD_NAMES.map((name) => [name, TO_TEXT[UNITS[name]](thresholds[name])])) as ThresholdTexts;

/** Why a step cannot be run (a code of the canary namespace's `steps.problems`), or null. */
export type StepProblem = "SHARE_RANGE" | "SHARE_NOT_RISING" | "LAST_NOT_ALL" | "HOLD_TOO_SHORT";

/** The steps as the API takes them, and each step's problem (index -> code); `list` for the whole list's. */
export function readSteps(texts: StepText[]): { steps: Step[]; problems: Map<number, StepProblem>; list: "NO_STEPS" | "TOO_MANY" | null } {
  const steps = texts.map((text) => ({ share: typedNumber(text.percent) / 100, holdS: Math.round(typedNumber(text.minutes) * 60) }));
  const problems = new Map<number, StepProblem>();
  steps.forEach((step, index) => {
    const previous = index > 0 ? steps[index - 1]!.share : 0;
    if (!(step.share > 0 && step.share <= 1)) problems.set(index, "SHARE_RANGE");
    else if (!(step.share > previous)) problems.set(index, "SHARE_NOT_RISING");
    else if (index === steps.length - 1 && step.share !== 1) problems.set(index, "LAST_NOT_ALL");
    else if (!(step.holdS >= MIN_HOLD_S)) problems.set(index, "HOLD_TOO_SHORT");
  });
  const list = steps.length === 0 ? "NO_STEPS" : steps.length > MAX_STEPS ? "TOO_MANY" : null;
  return { steps, problems, list };
}

/** Whether a threshold's value can be met: the gateway's THRESHOLD_INVALID rules. */
function thresholdValid(name: ThresholdName, value: number): boolean {
  if (!Number.isFinite(value) || value < 0) return false;
  if (UNITS[name] === "percent") return value <= 1;
  if (UNITS[name] === "count") return Number.isInteger(value) && (name !== "failedChecks" || value >= 1);
  if (name === "maxP99S") return value > 0;
  return value >= MIN_CHECK_EVERY_S;
}

/** The thresholds as the API takes them, and the names of those that cannot be met. */
export function readThresholds(texts: ThresholdTexts): { thresholds: Thresholds; invalid: ThresholdName[] } {
  const thresholds = Object.fromEntries(
    THRESHOLD_NAMES.map((name) => [name, FROM_TEXT[UNITS[name]](typedNumber(texts[name]))]),
  ) as unknown as Thresholds;
  return { thresholds, invalid: THRESHOLD_NAMES.filter((name) => !thresholdValid(name, thresholds[name])) };
}
