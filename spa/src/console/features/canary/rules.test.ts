import { describe, expect, it } from "vitest";

import { DEFAULT_THRESHOLDS, readSteps, readThresholds, stepTexts, thresholdTexts, typedNumber } from "./rules";

const steps = (...pairs: [string, string][]) => pairs.map(([percent, minutes]) => ({ percent, minutes }));

describe("a canary's steps as typed", () => {
  it("are the API's shares and seconds: 1 % for 5 minutes is {share: 0.01, holdS: 300}", () => {
    const read = readSteps(steps(["1", "5"], ["10", "0,5"], ["100", "2.5"]));
    expect(read.steps).toEqual([{ share: 0.01, holdS: 300 }, { share: 0.1, holdS: 30 }, { share: 1, holdS: 150 }]);
    expect(read.problems.size).toBe(0);
    expect(read.list).toBeNull();
  });

  it("start from the defaults, 1 % -> 10 % -> 50 % -> 100 % for 5 minutes each", () => {
    expect(stepTexts([{ share: 0.01, holdS: 300 }, { share: 1, holdS: 90 }])).toEqual(steps(["1", "5"], ["100", "1.5"]));
  });

  it.each([
    [steps(["0", "5"], ["100", "5"]), 0, "SHARE_RANGE"],
    [steps(["120", "5"]), 0, "SHARE_RANGE"],
    [steps(["-5", "5"], ["100", "5"]), 0, "SHARE_RANGE"],
    [steps(["50", "5"], ["10", "5"], ["100", "5"]), 1, "SHARE_NOT_RISING"],
    [steps(["10", "5"], ["10", "5"], ["100", "5"]), 1, "SHARE_NOT_RISING"],
    [steps(["10", "5"], ["50", "5"]), 1, "LAST_NOT_ALL"],
    [steps(["10", "0"], ["100", "5"]), 0, "HOLD_TOO_SHORT"],
    [steps(["10", "0.001"], ["100", "5"]), 0, "HOLD_TOO_SHORT"],
    [steps(["10", "soon"], ["100", "5"]), 0, "HOLD_TOO_SHORT"],
  ])("refuse %j at step %i: %s, as the gateway's STEPS_INVALID would", (typed, index, problem) => {
    expect(readSteps(typed).problems.get(index)).toBe(problem);
  });

  it("are one to ten", () => {
    expect(readSteps([]).list).toBe("NO_STEPS");
    const eleven = Array.from({ length: 11 }, (_, i) => ({ percent: String((i + 1) * 9), minutes: "1" }));
    expect(readSteps(eleven).list).toBe("TOO_MANY");
  });
});

describe("a canary's thresholds as typed", () => {
  it("show the defaults in the operator's units and read back to them", () => {
    const texts = thresholdTexts(DEFAULT_THRESHOLDS);
    expect(texts).toMatchObject({ maxErrorShare: "1", maxP99S: "500", maxLoginDrop: "10", failedChecks: "3", checkEveryS: "10" });
    expect(readThresholds(texts)).toEqual({ thresholds: DEFAULT_THRESHOLDS, invalid: [] });
  });

  it.each([
    ["maxP99S", "0"],
    ["maxP99S", "-1"],
    ["maxErrorShare", "101"],
    ["maxMoneyDrop", "x"],
    ["failedChecks", "0"],
    ["failedChecks", "2.5"],
    ["minAnswers", "1,5"],
    ["checkEveryS", "0.5"],
  ] as const)("refuse %s = %j: it cannot be met (THRESHOLD_INVALID)", (name, typed) => {
    const texts = { ...thresholdTexts(DEFAULT_THRESHOLDS), [name]: typed };
    expect(readThresholds(texts).invalid).toEqual([name]);
  });

  it("read a decimal comma as the console's languages write it", () => {
    expect(typedNumber("0,5")).toBe(0.5);
    expect(typedNumber(" 12 ")).toBe(12);
    expect(typedNumber("1e3")).toBeNaN();
  });
});
