import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import type { FieldError } from "../../api/errors";
import { TextField } from "../../components/TextField";
import { TimeField } from "../../components/TimeField";
import { useErrorText } from "../../lib/errorText";
import { typedRange, typedTime, type TimeName } from "../../lib/typedTime";
import type { TimelineFilters } from "./types";

interface EventsFilterFormProps {
  filters: TimelineFilters;
  errors: FieldError[];
  onFilter: (filters: TimelineFilters) => void;
}

/** Epoch seconds (the URL's) as the field shows them; "" for none or not a time. */
function shown(epoch: string | undefined, lng: string): string {
  return epoch && /^\d+$/.test(epoch) ? typedTime(Number(epoch) * 1000, lng) : "";
}

/** Which entries: one skin's, and from when to when (in UTC, written as the console's language
 * writes it, as the trail's filters); a time not understood is that field's error, nothing sent. */
export function EventsFilterForm({ filters, errors, onFilter }: EventsFilterFormProps) {
  const { t, i18n } = useTranslation("events");
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const text = useErrorText();
  const [form, setForm] = useState({ skin: filters.skin ?? "", since: shown(filters.since, lng), until: shown(filters.until, lng) });
  const [unread, setUnread] = useState<TimeName[]>([]);
  const set = (name: keyof typeof form) => (value: string) => setForm((now) => ({ ...now, [name]: value }));
  // TIME_INVALID is this screen's own (a time in the URL that is not one); the rest are the contract's.
  const message = (error: FieldError) => (error.code === "TIME_INVALID" ? t("timeInvalid") : text.field(error));
  const errorsOf = (field: string) => errors.filter((e) => e.field === field).map(message);

  function submit(event: FormEvent) {
    event.preventDefault();
    const times = typedRange(form.since, form.until, lng);
    setUnread(times.unread);
    if (times.unread.length > 0) return;
    const epoch = (iso: string | undefined) => (iso ? String(Date.parse(iso) / 1000) : "");
    onFilter({ skin: form.skin.trim(), since: epoch(times.since), until: epoch(times.until) });
  }

  const timeField = (field: TimeName) => (
    <TimeField name={field} label={t(field)} value={form[field]} onValue={set(field)} unread={unread.includes(field)}
               errors={errorsOf(field)} />
  );

  return (
    <form className="filters" onSubmit={submit} aria-label={t("filters")} data-testid="events-filters">
      <TextField name="skin" label={t("skin")} value={form.skin} onValue={set("skin")} errors={errorsOf("skin")} autoComplete="off" />
      {timeField("since")}
      {timeField("until")}
      <div className="filters__buttons">
        <button type="submit" className="button button--primary" data-testid="events-filter">
          {t("apply")}
        </button>
        {/* The form is keyed by the URL's filters: with none, it starts empty. */}
        <Link className="button" to="/events">{t("clear")}</Link>
      </div>
    </form>
  );
}
