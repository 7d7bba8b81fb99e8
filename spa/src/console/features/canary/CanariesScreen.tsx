import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { toConsoleError } from "../../api/errors";
import { ErrorNotice } from "../../components/ErrorNotice";
import { useFormats } from "../../lib/format";
import { useSignedIn } from "../../lib/store/hooks";
import { useGetCanariesQuery } from "./canaryApi";
import { isLive, type Canary } from "./types";
import { iso, useEndState } from "./words";

const REFRESH_MS = 5000;

/** The canaries, asked again every 5 s, and afresh as a view opens (a copy kept from another view may be old). */
function useCanaries() {
  return useGetCanariesQuery(undefined, { pollingInterval: useSignedIn() ? REFRESH_MS : 0, refetchOnMountOrArgChange: true });
}

const canaryPath = (canary: Canary) => `/canaries/${encodeURIComponent(canary.id)}`;

/** Every live canary, then the last ended one of each skin: where each stands, and the way to its view. */
export function CanariesScreen() {
  const { t } = useTranslation("canary");
  const { data, error, isError } = useCanaries();
  return (
    <section className="view" aria-labelledby="canaries-title" data-testid="canaries">
      <div className="view-head">
        <h1 id="canaries-title">{t("list.title")}</h1>
        <p className="view-head__facts">{t("list.intro")}</p>
      </div>
      {isError && <ErrorNotice error={toConsoleError(error)} />}
      {data?.length === 0 && <p className="muted" data-testid="canaries-empty">{t("list.empty")}</p>}
      {data && data.length > 0 && (
        <div className="table-scroll">
          <table className="cards canaries" data-testid="canaries-table">
            <caption className="visually-hidden">{t("list.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("list.target")}</th>
                <th scope="col">{t("list.state")}</th>
                <th scope="col">{t("list.started")}</th>
                <th scope="col">{t("list.where")}</th>
              </tr>
            </thead>
            <tbody>
              {data.map((canary) => <CanaryRow key={canary.id} canary={canary} />)}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CanaryRow({ canary }: { canary: Canary }) {
  const { t } = useTranslation("canary");
  const format = useFormats();
  const end = useEndState(canary);
  return (
    <tr data-testid="canary-row" data-state={canary.state}>
      <th scope="row">
        <Link to={canaryPath(canary)}>{t("list.name", { skin: canary.skin, upstream: canary.upstream })}</Link>
        <code className="url canaries__after">{canary.after}</code>
      </th>
      <td data-label={t("list.state")}>
        <span className={`badge badge--canary-${canary.state}`}>{t(`states.${canary.state}`)}</span>
      </td>
      <td data-label={t("list.started")}>
        {t("list.by", { who: canary.startedBy, when: format.dateTime(iso(canary.started)) })}
      </td>
      <td data-label={t("list.where")}>
        {end ?? t("list.at", { n: canary.step + 1, of: canary.steps.length, share: format.percent(canary.share) })}
      </td>
    </tr>
  );
}

/** On a skin's card: its live canaries, each linked to its view. */
export function SkinCanaries({ skin }: { skin: string }) {
  const { t } = useTranslation("canary");
  const format = useFormats();
  const live = (useCanaries().data ?? []).filter((canary) => canary.skin === skin && isLive(canary));
  if (live.length === 0) return null;
  return (
    <ul className="notice notice--warn skin-canaries" data-testid={`skin-canaries-${skin}`}>
      {live.map((canary) => (
        <li key={canary.id}>
          {t(canary.state === "paused" ? "skin.paused" : "skin.running", { upstream: canary.upstream, share: format.percent(canary.share) })}{" "}
          <Link to={canaryPath(canary)} data-testid="skin-canary-link">{t("skin.watch")}</Link>
        </li>
      ))}
    </ul>
  );
}
