import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { useFormats } from "../../lib/format";
import { useConsoleSelector, useSignedIn } from "../../lib/store/hooks";
import { staleFiguresMs } from "./figuresAge";
import { clearFromPage, showOnPage } from "./pageSignals";
import { useGetStatusQuery } from "./statusApi";
import type { ClusterStatus, Problem, StatusCanary } from "./types";
import "./status.css";

const REFRESH_MS = 2500;
const SHOWN = 4;

/** What is wrong, one line each: a skin's upstreams down together are one line. */
function sentences(problems: Problem[]): { key: string; problem: Problem; upstreams: string[] }[] {
  const lines: { key: string; problem: Problem; upstreams: string[] }[] = [];
  for (const problem of problems) {
    const same = problem.kind === "upstream" && lines.find((l) => l.problem.kind === "upstream" && l.problem.skin === problem.skin);
    if (same) same.upstreams.push(problem.upstream ?? "");
    else lines.push({ key: `${problem.kind}-${problem.skin}-${problem.upstream}-${problem.instance}`, problem, upstreams: [problem.upstream ?? ""] });
  }
  return lines;
}

/** Each live canary, linked to its view: "aurora capi canary at 10 %". */
function Canaries({ canaries }: { canaries: StatusCanary[] }) {
  const { t } = useTranslation("status");
  const format = useFormats();
  if (canaries.length === 0) return null;
  return (
    <ul className="status-line__canaries">
      {canaries.map((canary) => (
        <li key={canary.id}>
          <Link to={`/canaries/${encodeURIComponent(canary.id)}`} data-testid="status-canary" data-state={canary.state}>
            {t(canary.state === "paused" ? "canaryPaused" : "canary", { skin: canary.skin, upstream: canary.upstream, share: format.percent(canary.share) })}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function useHeadline(status: ClusterStatus | undefined): string | null {
  const { t } = useTranslation("status");
  const first = status?.problems[0];
  if (!first) return null;
  return t(`headline.${first.kind}`, { skin: first.skin, instance: first.instance });
}

/**
 * The line at the top of every screen: every skin healthy, or what is down or degraded and since
 * when (upstreams, breakers, error storms, stale instances, the store, the configuration), with the
 * store's state as it last answered; said again by the page's title and icon. Figures older than
 * twice their refresh say how old they are.
 */
export function StatusLine() {
  const { t } = useTranslation("status");
  const { t: common } = useTranslation();
  const format = useFormats();
  const polling = useSignedIn() ? REFRESH_MS : 0;
  const { data } = useGetStatusQuery(undefined, { pollingInterval: polling });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(tick);
  }, []);
  const staleMs = useConsoleSelector((state) => staleFiguresMs(state, now));
  const headline = useHeadline(data);
  const level = data?.level ?? "ok";
  const title = common("title");
  useEffect(() => {
    if (data) showOnPage(level, headline, title);
  }, [data, level, headline, title]);
  useEffect(() => () => clearFromPage(title), [title]);
  if (!data) return null;
  const lines = sentences(data.problems);
  const since = (iso: string | null) => format.dateTime(iso);
  return (
    <section className={`status-line status-line--${level}`} aria-label={t("label")} data-testid="status-line" data-level={level}>
      <div className="status-line__head">
        <span className="status-line__dot" aria-hidden="true" />
        <strong role="status" data-testid="status-headline">{headline ?? t("healthy")}</strong>
        <span className="status-line__store" data-testid="status-store" data-status={data.store.status}>
          {t(`store.${data.store.kind}`)}: {t(`store.${data.store.status}`)}
        </span>
        <Link to="/events" className="status-line__link">{t("timeline")}</Link>
      </div>
      <Canaries canaries={data.canaries ?? []} />
      {lines.length > 0 && (
        <ul className="status-line__problems">
          {lines.slice(0, SHOWN).map(({ key, problem, upstreams }) => (
            <li key={key} data-testid="status-problem" data-kind={problem.kind}>
              {t(`problem.${problem.kind}`, {
                skin: problem.skin, upstream: problem.upstream, upstreams: upstreams.join(", "), instance: problem.instance,
                since: since(problem.since), state: common(`breaker.${problem.detail === "half-open" ? "half-open" : "open"}`),
                share: problem.detail, seconds: problem.detail, detail: problem.detail,
              })}
            </li>
          ))}
          {lines.length > SHOWN && <li>{t("more", { count: lines.length - SHOWN })}</li>}
        </ul>
      )}
      {(data.maintenance ?? []).filter((window) => window.active).map((window) => (
        <p key={window.skin} className="status-line__maintenance" data-testid="status-maintenance">
          {t("maintenance", { skin: window.skin, until: format.dateTime(new Date(window.until * 1000).toISOString()) })}
        </p>
      ))}
      {staleMs !== null && (
        <p className="status-line__age" data-testid="figures-age">{t("figuresAge", { seconds: Math.round(staleMs / 1000) })}</p>
      )}
    </section>
  );
}
