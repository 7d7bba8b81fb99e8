import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";

import { toConsoleError } from "../../api/errors";
import { ErrorNotice } from "../../components/ErrorNotice";
import { useFormats } from "../../lib/format";
import { useSignedIn } from "../../lib/store/hooks";
import { EventsFilterForm } from "./EventsFilterForm";
import { useGetEventsQuery } from "./eventsApi";
import type { TimelineEntry, TimelineFilters } from "./types";

const REFRESH_MS = 5000;
const KINDS = new Set([
  "upstream.down", "upstream.back", "breaker.open", "breaker.closed", "storm.start", "storm.end", "config.changed",
  "config.rejected", "instance.joined", "instance.stale", "instance.back", "instance.left", "store.back",
  "maintenance.start", "maintenance.end", "scheduled.done", "scheduled.failed",
]);

/**
 * The cluster's event timeline, newest first, filtered by skin and time as the URL says (a chart's
 * link opens it at its hour: `?skin=aurora&since=<epoch s>&until=<epoch s>`). Read only: the
 * gateway writes every entry itself.
 */
export function EventsScreen() {
  const { t } = useTranslation("events");
  const format = useFormats();
  const [params, setParams] = useSearchParams();
  const filters: TimelineFilters = {
    skin: params.get("skin") ?? undefined, since: params.get("since") ?? undefined, until: params.get("until") ?? undefined,
  };
  const polling = useSignedIn() && !filters.until ? REFRESH_MS : 0;
  const { data, error, isError } = useGetEventsQuery(filters, { pollingInterval: polling });
  const problem = isError ? toConsoleError(error) : null;
  const filter = (next: TimelineFilters) =>
    setParams(Object.fromEntries(Object.entries(next).filter((entry): entry is [string, string] => Boolean(entry[1]))));
  return (
    <section className="view" aria-labelledby="events-title" data-testid="events">
      <div className="view-head">
        <h1 id="events-title">{t("title")}</h1>
        <p className="view-head__facts">{t("intro")} {data && t(`kept.${data.kept}`)}</p>
      </div>
      <EventsFilterForm key={params.toString()} filters={filters} errors={problem?.fields ?? []} onFilter={filter} />
      {problem && <ErrorNotice error={problem} />}
      {data && data.entries.length === 0 && <p className="muted" data-testid="events-none">{t("none")}</p>}
      {data && data.entries.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="events-title">
          <table className="events">
            <thead>
              <tr>
                <th scope="col">{t("at")}</th>
                <th scope="col">{t("what")}</th>
                <th scope="col">{t("by")}</th>
              </tr>
            </thead>
            <tbody>
              {data.entries.map((entry) => (
                <tr key={entry.id} data-testid="event" data-kind={entry.kind}>
                  <td>{format.dateTime(entry.at)}</td>
                  <td><EntryText entry={entry} /></td>
                  <td><code>{entry.by}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function EntryText({ entry }: { entry: TimelineEntry }) {
  const { t } = useTranslation("events");
  const format = useFormats();
  const values = { ...entry, at: format.dateTime(entry.at), since: format.dateTime(entry.since), detail: entry.detail ?? "" };
  // Kinds this console does not know yet (a newer gateway) are shown by name.
  return <>{KINDS.has(entry.kind) ? t(`kind.${entry.kind}` as "kind.unknown", values) : t("kind.unknown", values)}</>;
}
