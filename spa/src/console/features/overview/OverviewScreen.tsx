import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { toConsoleError } from "../../api/errors";
import type { ContractBreach, Skin, SkinSeries, Upstream } from "../../api/types";
import { ErrorNotice } from "../../components/ErrorNotice";
import { shortVersion, useFormats } from "../../lib/format";
import { SkinLimitNote, useSkinLimit } from "../../lib/session/skinLimits";
import { useAllowed, useSignedIn } from "../../lib/store/hooks";
import { ChartRange, type Range } from "./ChartRange";
import { useGetOverviewQuery, useGetSeriesQuery } from "./overviewApi";
import { PlatformErrors } from "./PlatformErrors";
import { SkinCharts } from "./SkinCharts";
import { UpstreamTable } from "./UpstreamTable";

/** How often the overview and its charts ask again. */
export const REFRESH_MS = 5000;

/** What operators may start from the overview; the app's route opens the dialogs. */
export interface OverviewActions {
  changeUpstream: (skin: Skin, upstream: Upstream, baseVersion: string) => void;
  changeReality: (skin: Skin, baseVersion: string) => void;
  purge: (skin: Skin) => void;
  revoke: (skin: Skin) => void;
}

interface OverviewScreenProps {
  actions?: OverviewActions;
  /** What other views say of a skin on its card, under its name (its live canaries); the app composes it. */
  skinNotes?: (skin: Skin) => ReactNode;
}

/** Every skin live: its upstreams' health and breakers, and the chosen range (an hour at first) in four charts. */
export function OverviewScreen({ actions, skinNotes }: OverviewScreenProps) {
  const { t } = useTranslation("overview");
  const format = useFormats();
  const polling = { pollingInterval: useSignedIn() ? REFRESH_MS : 0 };
  const overview = useGetOverviewQuery(undefined, polling);
  const [range, setRange] = useState<Range>(60);
  const series = useGetSeriesQuery(range, polling);
  const mayChange = useAllowed("operator") && actions !== undefined;
  const limit = useSkinLimit();
  const data = overview.data;

  return (
    <section className="view" aria-labelledby="overview-title" data-testid="overview">
      <div className="view-head">
        <h1 id="overview-title">{t("title")}</h1>
        {data && (
          <p className="view-head__facts" data-testid="config-version">
            {t("config", { version: shortVersion(data.config.version), source: data.config.source })}
            {" · "}
            {t("changedAt", { when: format.dateTime(data.config.changedAt) })}
            {" · "}
            {t(`store.${data.store.kind}`)}: {data.store.status}
            {series.data && ` · ${t(`scope.${series.data.scope}`)}`}
          </p>
        )}
      </div>
      {overview.isError && <ErrorNotice error={toConsoleError(overview.error)} />}
      {data?.config.error && (
        <p className="notice notice--error" role="alert" data-testid="config-error">
          {t("configError", { error: data.config.error, when: format.dateTime(data.config.errorAt) })}
        </p>
      )}
      {data?.operatorsFile.error && (
        <p className="notice notice--error" role="alert" data-testid="operators-file-error">
          {t("operatorsFileError", { error: data.operatorsFile.error, when: format.dateTime(data.operatorsFile.errorAt) })}
        </p>
      )}
      {!data && overview.isLoading && <p className="muted">{t("loading")}</p>}
      {data && <ChartRange value={range} onChange={setRange} />}
      {data?.skins.map((skin) => (
        <SkinPanel key={skin.id} skin={skin} series={series.data?.skins[skin.id]}
                   actions={mayChange && limit.allows(skin.id) ? actions : undefined} baseVersion={data.config.version}
                   breachScope={data.contractBreaches?.scope ?? "instance"} notes={skinNotes?.(skin)} />
      ))}
    </section>
  );
}

interface SkinPanelProps {
  skin: Skin;
  series: SkinSeries | undefined;
  /** Given when the operator may change things (operators and admins). */
  actions: OverviewActions | undefined;
  baseVersion: string;
  breachScope: "instance" | "workers";
  notes?: ReactNode;
}

/** One skin: its name and hosts, purge and revoke, its upstreams, the answers that broke their contract, its four charts. */
function SkinPanel({ skin, series, actions, baseVersion, breachScope, notes }: SkinPanelProps) {
  const { t } = useTranslation("overview");
  return (
    <section className="skin" aria-labelledby={`skin-${skin.id}`} data-testid={`skin-${skin.id}`}>
      <div className="skin__head">
        <div>
          <h2 id={`skin-${skin.id}`}>
            {skin.name} <span className="muted">({skin.id})</span>
          </h2>
          <p className="muted">{t("skinFacts", { siteId: skin.siteId, hosts: skin.hosts.join(", ") })}</p>
        </div>
        {actions && (
          <div className="skin__actions">
            <button type="button" className="button" onClick={() => actions.purge(skin)} data-testid="purge-open">
              {t("purge")}
            </button>
            <button type="button" className="button" onClick={() => actions.revoke(skin)} data-testid="revoke-open">
              {t("revoke")}
            </button>
            <Link className="button" to={`/plans#maintenance-${skin.id}`} data-testid="maintenance-open">
              {t("maintenance")}
            </Link>
          </div>
        )}
        {!actions && <SkinLimitNote skin={skin.id} />}
      </div>
      {notes}
      <RealityCheck skin={skin} onChange={actions && (() => actions.changeReality(skin, baseVersion))} />
      <UpstreamTable skin={skin} onChange={actions && ((upstream) => actions.changeUpstream(skin, upstream, baseVersion))} />
      <ContractBreaches skin={skin.id} breaches={skin.contractBreaches ?? []} scope={breachScope} />
      <PlatformErrors skin={skin.id} errors={skin.platformErrors ?? []} scope={breachScope} />
      <SkinCharts skin={skin.id} series={series} />
    </section>
  );
}

/** How often the skin's players see a reality check (`features.reality_check_minutes`), and Change for operators. */
function RealityCheck({ skin, onChange }: { skin: Skin; onChange: (() => void) | undefined }) {
  const { t } = useTranslation("overview");
  const minutes = skin.realityCheckMinutes;
  return (
    <p className="skin__setting" data-testid={`reality-${skin.id}`}>
      <span>
        {t("reality.label")}{" "}
        <strong data-testid="reality-value">{minutes === null ? t("reality.off") : t("reality.every", { count: minutes })}</strong>
      </span>
      {onChange && (
        <button type="button" className="button" onClick={onChange} data-testid="reality-open"
                aria-label={t("reality.changeLabel", { skin: skin.name })}>
          {t("reality.change")}
        </button>
      )}
    </p>
  );
}

interface ContractBreachesProps {
  skin: string;
  breaches: ContractBreach[];
  scope: "instance" | "workers";
}

/** Each route whose platform answers broke their contract (each a 502 to the player), with whose counts these are. */
function ContractBreaches({ skin, breaches, scope }: ContractBreachesProps) {
  const { t } = useTranslation("overview");
  const counted = t(`breaches.scope.${scope}`);
  if (breaches.length === 0) {
    return <p className="muted" data-testid={`breaches-${skin}`}>{t("breaches.none", { counted })}</p>;
  }
  return (
    <div className="notice notice--warn" data-testid={`breaches-${skin}`}>
      <p>{t("breaches.title", { counted })}</p>
      <ul>
        {breaches.map((breach) => (
          <li key={breach.route}>
            <code>{breach.route}</code>: {t("breaches.count", { count: breach.count })}
          </li>
        ))}
      </ul>
    </div>
  );
}
