import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";

import { toConsoleError } from "../../api/errors";
import { ErrorNotice } from "../../components/ErrorNotice";
import { shortVersion, useFormats } from "../../lib/format";
import { useSkinLimit } from "../../lib/session/skinLimits";
import { useAllowed, useSignedIn } from "../../lib/store/hooks";
import { CanaryActions } from "./CanaryActions";
import { CanarySteps } from "./CanarySteps";
import { canaryApi, useGetCanaryQuery } from "./canaryApi";
import { isLive, type Canary } from "./types";
import { VerdictCard } from "./VerdictCard";
import { iso, useEndState } from "./words";

/** How often a live canary's view asks again (a check every 10 s by default: a fresh one shows within 2 s). */
export const LIVE_REFRESH_MS = 2000;

/** The clock a step's time left counts on, ticking while the view is open. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(tick);
  }, []);
  return now;
}

/**
 * One canary: both targets, the step it is at and the time left in it, its last check's figures
 * side by side, every step's checks, and pause / resume / promote / abort. It asks again every 2 s
 * while live and stops once the canary has ended.
 */
export function CanaryScreen() {
  const { t } = useTranslation("canary");
  const { id = "" } = useParams();
  const signedIn = useSignedIn();
  // What the cache already holds decides the polling: none once the canary has ended, or is not there.
  const known = canaryApi.endpoints.getCanary.useQueryState(id);
  const gone = known.error !== undefined && "status" in known.error && known.error.status === 404;
  const polling = signedIn && !gone && (!known.data || isLive(known.data)) ? LIVE_REFRESH_MS : 0;
  const { data, error, isError } = useGetCanaryQuery(id, { pollingInterval: polling });
  return (
    <section className="view" aria-labelledby="canary-title" data-testid="canary" data-state={data?.state}>
      <div className="view-head">
        <h1 id="canary-title">{data ? t("view.title", { skin: data.skin, upstream: data.upstream }) : t("view.loading")}</h1>
        <p className="view-head__facts">
          <Link to="/canaries">{t("view.all")}</Link>
        </p>
      </div>
      {isError && <ErrorNotice error={toConsoleError(error)} />}
      {data && <CanaryDetail canary={data} />}
    </section>
  );
}

function CanaryDetail({ canary }: { canary: Canary }) {
  const { t } = useTranslation("canary");
  const format = useFormats();
  const end = useEndState(canary);
  const operator = useAllowed("operator");
  const limit = useSkinLimit();
  const mayAct = operator && limit.allows(canary.skin);
  const last = canary.verdicts[canary.verdicts.length - 1];
  return (
    <>
      <p className="canary-facts" data-testid="canary-facts">
        <span className={`badge badge--canary-${canary.state}`} data-testid="canary-state">{t(`states.${canary.state}`)}</span>{" "}
        {t("view.started", { who: canary.startedBy, when: format.dateTime(iso(canary.started)), version: shortVersion(canary.baseVersion) })}
        {canary.reason && <> · <q className="version__reason">{canary.reason}</q></>}
      </p>
      {end && (
        <p className={canary.state === "promoted" ? "notice notice--ok" : "notice notice--warn"} role="status" data-testid="canary-end">
          {end}
        </p>
      )}
      <Targets canary={canary} />
      {isLive(canary) && <CurrentStep canary={canary} />}
      {mayAct && <CanaryActions canary={canary} />}
      <h2>{t("view.lastCheck")}</h2>
      {last ? (
        <VerdictCard verdict={last} thresholds={canary.thresholds} before={canary.before} after={canary.after} />
      ) : (
        <p className="muted" data-testid="canary-no-check">{t("view.noCheck", { every: format.duration(canary.thresholds.checkEveryS) })}</p>
      )}
      <h2>{t("view.steps")}</h2>
      <CanarySteps canary={canary} />
    </>
  );
}

/** The old and the new base URL, and the share of new players each one gets now. */
function Targets({ canary }: { canary: Canary }) {
  const { t } = useTranslation("canary");
  const format = useFormats();
  const sides = [
    { side: "old", url: canary.before, share: isLive(canary) ? 1 - canary.share : null },
    { side: "new", url: canary.after, share: isLive(canary) ? canary.share : null },
  ] as const;
  return (
    <div className="canary-targets">
      {sides.map(({ side, url, share }) => (
        <div key={side} className={`canary-target canary-target--${side}`} data-testid={`canary-target-${side}`}>
          <h2>{t(`figures.${side}`)}</h2>
          <code className="url">{url}</code>
          {share !== null && <p>{t("view.share", { share: format.percent(share) })}</p>}
        </div>
      ))}
    </div>
  );
}

/** Where a live canary is: its step and share, the time left in the step (running only), its failed checks. */
function CurrentStep({ canary }: { canary: Canary }) {
  const { t } = useTranslation("canary");
  const format = useFormats();
  const now = useNow();
  const step = canary.steps[canary.step];
  const left = step ? Math.max(0, canary.stepStarted + step.holdS - now / 1000) : 0;
  return (
    <dl className="facts canary-now" data-testid="canary-now">
      <dt>{t("view.step")}</dt>
      <dd data-testid="canary-step-now">
        {t("view.stepOf", { n: canary.step + 1, of: canary.steps.length, share: format.percent(canary.share) })}
      </dd>
      <dt>{t("view.left")}</dt>
      <dd data-testid="canary-left">{canary.state === "paused" ? t("view.pausedLeft") : format.duration(left)}</dd>
      <dt>{t("view.failed")}</dt>
      <dd data-testid="canary-failed">{t("view.failedOf", { failed: canary.failed, of: canary.thresholds.failedChecks })}</dd>
      <dt>{t("view.checked")}</dt>
      <dd>{canary.lastCheck ? format.dateTime(iso(canary.lastCheck)) : "–"}</dd>
    </dl>
  );
}
