import type { Canary, Figures, Verdict } from "../features/canary/types";
import { DEFAULT_THRESHOLDS } from "../features/canary/rules";

/**
 * The canaries of the FakeConsole, as the issue 38 contract answers them: started (409
 * CANARY_RUNNING while the skin has a live one, 422 STEPS_INVALID / THRESHOLD_INVALID /
 * REASON_TOO_SHORT), listed, read, paused, resumed, promoted and aborted (409 CANARY_ENDED once over).
 */

const NOW_S = Date.now() / 1000;

export const figures = (over: Partial<Figures> = {}): Figures => ({
  answers: 120, errors: 0.004, refused: 0.02, p99S: 0.21, logins: 14, loginSuccess: 0.93, money: 9, moneySuccess: 1, ...over,
});

export function verdict(over: Partial<Verdict> = {}): Verdict {
  return { at: NOW_S - 20, step: 1, share: 0.1, outcome: "passed", reasons: [], old: figures(), new: figures(), ...over };
}

/** A canary of aurora's capi at its second step (10 %), 200 s of 300 left, one check passed. */
export function canary(over: Partial<Canary> = {}): Canary {
  const steps = [{ share: 0.01, holdS: 300 }, { share: 0.1, holdS: 300 }, { share: 0.5, holdS: 300 }, { share: 1, holdS: 300 }];
  const step = over.step ?? 1;
  return {
    id: "aurora-1a2b3c4d", skin: "aurora", upstream: "capi", before: "http://127.0.0.1:8001", after: "https://cms-2.example",
    steps, thresholds: DEFAULT_THRESHOLDS, state: "running", step, stepStarted: NOW_S - 100, started: NOW_S - 400,
    startedBy: "alice", reason: "the new CMS", baseVersion: "v1-aaaaaaaaaaaa", failed: 0, lastCheck: NOW_S - 20,
    verdicts: [verdict({ step: 0, share: 0.01, at: NOW_S - 320 }), verdict()], ended: null, endedBy: null,
    endedReason: null, promotedVersion: null, drainUntil: null, revision: 3,
    share: ["running", "paused"].includes(over.state ?? "running") ? (steps[step]?.share ?? 0) : 0, ...over,
  };
}

const said = (value: unknown): string => (typeof value === "string" ? value : "");
const answer = (status: number, body: unknown) => Response.json(body, { status });
const refused = (field: string, code: string) =>
  answer(422, { message: "Invalid", code: "INVALID", requestId: "req-c", errors: [{ field, code, message: `bad ${field}` }] });

export class FakeCanaries {
  list: Canary[] = [];

  route(method: string, path: string, body: Record<string, unknown>, who: string): Response | null {
    if (method === "GET" && path === "canaries") return answer(200, { canaries: this.list });
    if (method === "POST" && path === "canaries") return this.start(body, who);
    const one = /^canaries\/([^/]+)(?:\/(pause|resume|promote|abort))?$/.exec(path);
    const found = one && this.list.find((c) => c.id === decodeURIComponent(one[1]!));
    if (!one) return null;
    if (!found) return answer(404, { message: "No canary", code: "CANARY_NOT_FOUND", requestId: "req-c" });
    if (method === "GET" && !one[2]) return answer(200, { canary: found });
    if (method === "POST" && one[2]) return this.act(found, one[2], body, who);
    return null;
  }

  private start(body: Record<string, unknown>, who: string): Response {
    if (said(body.reason).trim().length < 3) return refused("reason", "REASON_TOO_SHORT");
    const steps = body.steps as { share: number; holdS: number }[];
    if (!steps.length || steps[steps.length - 1]!.share !== 1) return refused("steps", "STEPS_INVALID");
    if (this.list.some((c) => c.skin === body.skin && ["running", "paused"].includes(c.state))) {
      return answer(409, { message: "aurora has a live canary", code: "CANARY_RUNNING", requestId: "req-c" });
    }
    const started = canary({
      id: `aurora-${this.list.length + 1}`, upstream: said(body.upstream), after: said(body.url), steps, step: 0,
      thresholds: body.thresholds as Canary["thresholds"], startedBy: who, reason: said(body.reason), verdicts: [],
      stepStarted: NOW_S, started: NOW_S, lastCheck: 0, share: steps[0]!.share,
    });
    this.list.unshift(started);
    return answer(201, { canary: started });
  }

  private act(found: Canary, action: string, body: Record<string, unknown>, who: string): Response {
    if (!["running", "paused"].includes(found.state)) {
      return answer(409, { message: "ended", code: "CANARY_ENDED", requestId: "req-c" });
    }
    if (said(body.reason).trim().length < 3) return refused("reason", "REASON_TOO_SHORT");
    const ended = { ended: NOW_S, endedBy: who, endedReason: said(body.reason), share: 0 };
    const next: Partial<Canary> =
      action === "pause" ? { state: "paused" } : action === "resume" ? { state: "running" }
      : action === "promote" ? { ...ended, state: "promoted", promotedVersion: "v2-cccccccccccc" } : { ...ended, state: "aborted" };
    Object.assign(found, next, { revision: found.revision + 1 });
    return answer(200, { canary: found });
  }
}
