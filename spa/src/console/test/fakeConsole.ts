import { vi } from "vitest";

import { FakeCanaries } from "./fakeCanaries";
import type {
  AuditEntry, Change, ConfigVersion, ConsoleSession, Instance, Overview, Role, Series, Skin, Upstream,
} from "../api/types";

/**
 * A stand-in for the admin listener's console API, stateful and close to the contract
 * (docs/console-api.md): sessions with the CSRF cookie, roles, versioned changes with 409s,
 * history, rollback, the audit trail. Installed as global fetch; `answerOnce` makes one call fail
 * the way the world breaks it (401, 403, 409, 422, 429...).
 */

type Responder = (request: Request, body: Record<string, unknown>) => Response | Promise<Response>;

export const OPERATORS: Record<string, { role: Role; password: string }> = {
  vera: { role: "viewer", password: "vera-pass" },
  alice: { role: "operator", password: "alice-pass" },
  ada: { role: "admin", password: "ada-pass" },
};

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
const FILE_URL = "http://127.0.0.1:8001";
// The fake's clock: its times are "a few seconds ago" whenever the tests run.
const NOW = Date.now();

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers });

const text = (value: unknown): string => (typeof value === "string" ? value : "");

export const refusal = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  json(status, { message: `refused: ${code}`, code, requestId: "req-1", ...extra });

function upstream(name: string, url: string, overridden = false): Upstream {
  return {
    name, url, overridden, fileUrl: FILE_URL,
    health: { status: "up", latencyMs: 12.5, checkedAt: new Date(Date.now() - 4000).toISOString(), detail: "HTTP 200" },
    breaker: { state: "closed", since: null },
  };
}

export class FakeConsole {
  session: ConsoleSession | null = null;
  expired = false;
  csrf = "csrf-token-1";
  version = "v1-aaaaaaaaaaaa";
  overrides: Record<string, string> = {};
  /** The start's entry has no one (the gateway's says `system`): the console words either. */
  history: (Omit<ConfigVersion, "who" | "via"> & { who: string | null; via: string | null })[] = [
    { id: "1-0", version: "v1-aaaaaaaaaaaa", previous: null, at: new Date(NOW - 3600_000).toISOString(), who: null,
      via: null, reason: null, action: "start", changes: [], skins: {} },
  ];
  audit: AuditEntry[] = [];
  /** What `GET /admin/api/audit/verify` answers (the chain's check). */
  verdict: unknown = { intact: true, checked: 0, first: null, last: null, lastAt: null, trimmed: false, broken: null };
  instances = 3;
  missing: { id: string; host: string }[] = [];
  /** Instances whose heartbeat stopped (SIGSTOP). */
  stale: string[] = [];
  /** GET status's answer (features/status/types.ts ClusterStatus). */
  status: Record<string, unknown> = {
    level: "ok", problems: [], watchedAt: new Date(NOW).toISOString(), ageS: 0.4, everyS: 2.5,
    store: { kind: "redis", status: "ok", since: null, answeredAt: new Date(NOW).toISOString() },
  };
  /** The timeline's entries, newest first (features/events/types.ts TimelineEntry). */
  events: Record<string, unknown>[] = [];
  /** What is planned ahead (the Planned view's lists). */
  windows: Record<string, unknown> = {};
  scheduled: Record<string, unknown>[] = [];
  approvals: Record<string, unknown>[] = [];
  /** The canaries (issue 38): started, read and moved through `/admin/api/canaries`. */
  canaries = new FakeCanaries();
  requests: { method: string; path: string; query: string; body: Record<string, unknown>; headers: Headers }[] = [];
  private once = new Map<string, Responder[]>();

  install() {
    const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
      this.handle(input instanceof Request ? input : new Request(input, init)),
    );
    vi.stubGlobal("fetch", fetchMock);
    return this;
  }

  /** The next `method path` call gets this answer instead of the fake's own. */
  answerOnce(method: string, path: string, responder: Responder) {
    const key = `${method} ${path}`;
    this.once.set(key, [...(this.once.get(key) ?? []), responder]);
  }

  signInAs(name: keyof typeof OPERATORS) {
    this.session = { name, role: OPERATORS[name]!.role, skins: [], idleExpiresAt: "2026-11-26T10:30:00Z", expiresAt: "2026-11-26T22:00:00Z" };
    this.expired = false;
    document.cookie = `console-csrf=${this.csrf}; path=/admin`;
    return this;
  }

  calls(method: string, path: string) {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  /** The answers the platform sent that broke their route's contract, per route (the overview's). */
  breaches: { route: string; count: number }[] = [];
  /** The platform's refusals (HTTP 200 `success: false`) by route class and code (the overview's). */
  platformErrors: { routeClass: string; code: string; count: number }[] = [];
  /** aurora's reality check (`features.reality_check_minutes`; null: off). */
  realityMinutes: number | null = null;

  skins(): Skin[] {
    const url = (name: string) => this.overrides[`aurora/${name}`] ?? FILE_URL;
    return [
      { id: "aurora", name: "Aurora Casino", siteId: "aurora", hosts: ["127.0.0.1", "localhost"],
        upstreams: ["api", "capi", "sbapi", "rest"].map((n) => upstream(n, url(n), `aurora/${n}` in this.overrides)),
        allowedHosts: ["127.0.0.1:8001", "*.example"], contractBreaches: this.breaches, platformErrors: this.platformErrors,
        approval: false, realityCheckMinutes: this.realityMinutes },
    ];
  }

  overview(): Overview {
    return {
      config: { version: this.version, source: "file+overrides", changedAt: this.history[0]!.at, error: null, errorAt: null },
      operatorsFile: { error: null, errorAt: null },
      store: { kind: "redis", status: "ok" },
      contractBreaches: { scope: "instance" },
      skins: this.skins(),
    };
  }

  series(): Series {
    const to = Math.floor(NOW / 1000);
    const t = Array.from({ length: 360 }, (_, i) => to - (359 - i) * 10);
    return {
      stepS: 10, scope: "cluster", from: t[0]!, to,
      skins: { aurora: { t, requests: t.map((_, i) => (i % 7) * 10), rps: t.map((_, i) => i % 7), errorRate: t.map((_, i) => (i % 7 ? 0.01 : null)),
                         platformErrorRate: t.map((_, i) => (i % 7 ? 0.3 : null)),
                         sessionExpiredRate: t.map((_, i) => (i % 7 ? 0.25 : null)),
                         p95Ms: t.map((_, i) => (i % 7 ? 40 + i : null)), cacheHitRatio: t.map(() => 0.8) } },
    };
  }

  instanceList(): Instance[] {
    return Array.from({ length: this.instances }, (_, i) => ({
      id: `gw-${i}`, host: `10.0.0.${i + 1}:9100`, pid: 100 + i, appVersion: "0.1.0",
      startedAt: new Date(NOW - 7200_000).toISOString(), uptimeS: 7200 + 61,
      configVersion: i === 2 && this.missing.length ? "v0-old" : this.version,
      draining: false, workers: null, sameVersion: !(i === 2 && this.missing.length),
      lastSeenS: this.stale.includes(`gw-${i}`) ? 9.5 : 1.2, state: this.stale.includes(`gw-${i}`) ? "stale" : "serving",
    }));
  }

  /** A version made by someone else (another operator's change landing meanwhile). */
  changeBehindTheBack(change: Change, who = "bob") {
    this.write([change], who, "their reason", "change");
  }

  private write(changes: Change[], who: string, reason: string, action: "change" | "rollback") {
    for (const { upstream, after } of changes.filter((change) => !change.upstream.startsWith("features."))) {
      if (after === null) delete this.overrides[`aurora/${upstream}`];
      else this.overrides[`aurora/${upstream}`] = after;
    }
    const previous = this.version;
    this.version = `v${this.history.length + 1}-${"b".repeat(12)}`;
    this.history.unshift({ id: `${this.history.length + 1}-0`, version: this.version, previous,
                           at: new Date(NOW).toISOString(), who, via: "console", reason, action, changes, skins: {} });
    this.audit.unshift({ id: `a${this.audit.length + 1}`, at: new Date(NOW).toISOString(), action, who, via: "console",
                         address: "127.0.0.1", outcome: "ok", skin: "aurora", target: changes[0]?.upstream ?? null, reason,
                         before: changes[0]?.before ?? null, after: changes[0]?.after ?? null, detail: null, prev: null, hash: null });
    return { version: this.version, previous, changes };
  }

  private live() {
    return { acknowledged: this.instances - this.missing.length, total: this.instances, missing: this.missing, waitedS: 0.4 };
  }

  private refusalFor(request: Request, path: string, needs: Role): Response | null {
    if (path === "/admin/api/session" && request.method === "POST") return null;
    if (this.expired) return refusal(401, "SESSION_EXPIRED");
    if (!this.session) return refusal(401, "SIGNED_OUT");
    if (request.method !== "GET" && request.headers.get("x-csrf-token") !== this.csrf) return refusal(403, "CSRF");
    if (RANK[this.session.role] < RANK[needs]) return refusal(403, "FORBIDDEN", { needs });
    return null;
  }

  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const text = request.method === "GET" ? "" : await request.text();
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    this.requests.push({ method: request.method, path: url.pathname, query: url.search, body, headers: request.headers });
    const queued = this.once.get(`${request.method} ${url.pathname}`);
    if (queued?.length) return queued.shift()!(request, body);
    const needs: Role = request.method === "GET" ? (url.pathname.startsWith("/admin/api/audit/export") ? "admin" : "viewer") : "operator";
    const refused = this.refusalFor(request, url.pathname, url.pathname === "/admin/api/session" ? "viewer" : needs);
    return refused ?? this.route(request.method, url, body);
  }

  private route(method: string, url: URL, body: Record<string, unknown>): Response {
    const path = url.pathname.replace("/admin/api/", "");
    const route = `${method} ${path}`;
    if (route === "POST session") return this.signIn(body);
    if (route === "GET session") return json(200, this.session);
    if (route === "DELETE session") {
      this.session = null;
      return new Response(null, { status: 204 });
    }
    if (path.startsWith("canaries")) return this.canaries.route(method, path, body, this.session!.name) ?? refusal(404, "NOT_FOUND");
    if (route === "GET overview") return json(200, this.overview());
    if (route === "GET series") return json(200, this.series());
    if (route === "GET instances") return json(200, { current: this.version, instances: this.instanceList() });
    if (route === "GET status") return json(200, this.status);
    if (route === "GET events") return this.timeline(url.searchParams);
    if (route === "GET maintenance") return json(200, { skins: this.windows });
    if (route === "GET scheduled") return json(200, { scheduled: this.scheduled });
    if (route === "GET approvals") return json(200, { approvals: this.approvals });
    if (route === "GET history") return json(200, { current: this.version, versions: this.history });
    if (route === "GET audit/verify") return json(200, this.verdict);
    if (route === "GET audit") return json(200, { entries: this.auditFor(url.searchParams), next: null });
    if (route === "POST changes/preview" || route === "POST changes") return this.change(body, route === "POST changes");
    if (route === "POST settings/preview" || route === "POST settings") return this.setting(body, route === "POST settings");
    if (route === "POST rollback/preview" || route === "POST rollback") return this.rollback(body, route === "POST rollback");
    const purge = /^skins\/([^/]+)\/cache\/purge$/.exec(path);
    if (method === "POST" && purge) return this.recorded("purge", body, { skin: purge[1], purged: { local: 3, shared: 7 } });
    const revoke = /^skins\/([^/]+)\/players\/([^/]+)\/revoke$/.exec(path);
    if (method === "POST" && revoke) {
      const login = decodeURIComponent(revoke[2]!);
      const ended = login === "demo1" ? 2 : 0;  // any other login has no session
      const answer = { skin: revoke[1], login, sessionsEnded: ended, found: ended > 0, blockedUntil: "2026-12-02T14:17:11Z" };
      return this.recorded("revoke", body, answer);
    }
    return refusal(404, "NOT_FOUND");
  }

  private signIn(body: Record<string, unknown>): Response {
    const errors = ["name", "password"].filter((f) => !body[f]).map((field) => ({ field, code: "REQUIRED", message: "Required" }));
    if (errors.length) return json(422, { message: "Invalid", code: "INVALID", requestId: "req-2", errors });
    const operator = OPERATORS[text(body.name)];
    if (!operator || operator.password !== body.password) return refusal(401, "SIGN_IN_FAILED");
    this.signInAs(text(body.name));
    return json(200, this.session);
  }

  private timeline(params: URLSearchParams): Response {
    const skin = params.get("skin");
    if (skin && !/^[a-z0-9][a-z0-9_-]*$/.test(skin)) return this.invalid("skin", "UNKNOWN_SKIN");
    if (params.get("since") && Number.isNaN(Number(params.get("since")))) return this.invalid("since", "TIME_INVALID");
    const since = Number(params.get("since") ?? Number.NaN);
    const entries = this.events
      .filter((entry) => !skin || entry.skin === skin)
      .filter((entry) => Number.isNaN(since) || Date.parse(text(entry.at)) / 1000 >= since);
    return json(200, { kept: "redis", entries });
  }

  private auditFor(params: URLSearchParams): AuditEntry[] {
    const admin = this.session?.role === "admin";
    return this.audit
      .filter((entry) => admin || ["change", "rollback", "reload", "purge", "revoke"].includes(entry.action))
      .filter((entry) => !params.get("action") || entry.action === params.get("action"))
      .filter((entry) => !params.get("who") || entry.who.toLowerCase().includes(params.get("who")!.toLowerCase()))
      .map((entry) => (admin ? entry : { ...entry, address: null }));
  }

  private invalid(field: string, code: string): Response {
    return json(422, { message: "Invalid", code: "INVALID", requestId: "req-3", errors: [{ field, code, message: `bad ${field}` }] });
  }

  private change(body: Record<string, unknown>, apply: boolean): Response {
    const name = text(body.upstream);
    const url = body.url === null ? null : text(body.url);
    if (url !== null && !/^https?:\/\//.test(url)) return this.invalid("url", "URL_SCHEME");
    const before = this.overrides[`aurora/${name}`] ?? null;
    if (before === url) return this.invalid("url", "UNCHANGED");
    const changes = [{ skin: "aurora", upstream: name, before, after: url }];
    return this.versioned(body, apply, changes, () => this.write(changes, this.session!.name, text(body.reason), "change"));
  }

  /** aurora's reality check, as the gateway keeps it: `features.reality_check_minutes`, "off" or the minutes. */
  private setting(body: Record<string, unknown>, apply: boolean): Response {
    const value = body.value === null || body.value === 0 ? null : Number(body.value);
    if (value !== null && !(value >= 0.25 && value <= 1440)) return this.invalid("value", "OUT_OF_RANGE");
    if (value === this.realityMinutes) return this.invalid("value", "UNCHANGED");
    const said = (minutes: number | null) => (minutes === null ? "off" : String(minutes));
    const changes = [{ skin: "aurora", upstream: "features.reality_check_minutes", before: said(this.realityMinutes), after: said(value) }];
    return this.versioned(body, apply, changes, () => {
      this.realityMinutes = value;
      return this.write(changes, this.session!.name, text(body.reason), "change");
    });
  }

  private rollback(body: Record<string, unknown>, apply: boolean): Response {
    const target = this.history.find((entry) => entry.version === body.to);
    if (!target) return this.invalid("to", "UNKNOWN_VERSION");
    // The overrides as they were at that version: the history replayed from the start up to it.
    const wanted: Record<string, string | null> = {};
    for (const entry of this.history.slice(this.history.indexOf(target)).reverse()) {
      for (const change of entry.changes) wanted[change.upstream] = change.after;
    }
    const names = new Set([...Object.keys(wanted), ...Object.keys(this.overrides).map((key) => key.split("/")[1]!)]);
    const changes = [...names]
      .map((name) => ({ skin: "aurora", upstream: name, before: this.overrides[`aurora/${name}`] ?? null, after: wanted[name] ?? null }))
      .filter((change) => change.before !== change.after);
    return this.versioned(body, apply, changes, () => this.write(changes, this.session!.name, text(body.reason), "rollback"));
  }

  private versioned(body: Record<string, unknown>, apply: boolean, changes: Change[], write: () => object): Response {
    const stale = body.baseVersion !== this.version;
    if (!apply && changes.every((change) => change.upstream.startsWith("features."))) {  // a setting: nothing probed
      return json(200, { baseVersion: body.baseVersion, current: this.version, stale, changes, probe: null, probes: [], check: null, checks: [] });
    }
    if (!apply) {
      const probe = { url: changes[0]?.after ?? FILE_URL, ok: true, status: 200, latencyMs: 41.2, error: null,
                      tls: { subject: "CN=wallet-2.example", issuer: "CN=Test CA", notAfter: "2027-02-15T00:00:00Z", daysLeft: 81 } };
      const check = { skin: "aurora", upstream: changes[0]?.upstream ?? "api", url: probe.url, ok: true, valid: 5, total: 5,
                      summary: "speaks the platform: 5/5 documented calls valid", calls: [] };
      return json(200, { baseVersion: body.baseVersion, current: this.version, stale, changes, probe, check, checks: [check] });
    }
    if (text(body.reason).trim().length < 3) return this.invalid("reason", "REASON_TOO_SHORT");
    if (stale) {
      const since = this.history.slice(0, this.history.findIndex((e) => e.version === body.baseVersion));
      // As the gateway says it: who changed each upstream last, and when (newest entries first).
      const blamed = since.flatMap(({ changes: made, who, via, at, version, action }) =>
        made.map((change) => ({ ...change, who, via, at, version, action })));
      return json(409, { code: "VERSION_CONFLICT", message: "stale", requestId: "req-4", current: this.version,
                         skins: ["aurora"], changes: blamed });
    }
    return json(200, { ...write(), live: this.live() });
  }

  private recorded(action: "purge" | "revoke", body: Record<string, unknown>, answer: Record<string, unknown>): Response {
    if (text(body.reason).trim().length < 3) return this.invalid("reason", "REASON_TOO_SHORT");
    this.audit.unshift({ id: `a${this.audit.length + 1}`, at: new Date(NOW).toISOString(), action, who: this.session!.name,
                         via: "console", address: "127.0.0.1", outcome: "ok", skin: String(answer.skin),
                         target: (answer.login as string | undefined) ?? null, reason: text(body.reason), before: null,
                         after: null, detail: answer, prev: null, hash: null });
    return json(200, answer);
  }
}
