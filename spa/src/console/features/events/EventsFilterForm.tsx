import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import type { FieldError } from "../../api/errors";
import { TextField } from "../../components/TextField";
import { useErrorText } from "../../lib/errorText";
import { epochToLocal, localToEpoch } from "./times";
import type { TimelineFilters } from "./types";

interface EventsFilterFormProps {
  filters: TimelineFilters;
  errors: FieldError[];
  onFilter: (filters: TimelineFilters) => void;
}

/** Which entries: one skin's, and from when to when (the operator's local time). */
export function EventsFilterForm({ filters, errors, onFilter }: EventsFilterFormProps) {
  const { t } = useTranslation("events");
  const text = useErrorText();
  const [form, setForm] = useState({ skin: filters.skin ?? "", since: epochToLocal(filters.since), until: epochToLocal(filters.until) });
  const set = (name: keyof typeof form) => (value: string) => setForm((shown) => ({ ...shown, [name]: value }));
  // TIME_INVALID is this screen's own (a time in the URL that is not one); the rest are the contract's.
  const message = (error: FieldError) => (error.code === "TIME_INVALID" ? t("timeInvalid") : text.field(error));
  const errorsOf = (field: string) => errors.filter((e) => e.field === field).map(message);

  function submit(event: FormEvent) {
    event.preventDefault();
    onFilter({ skin: form.skin.trim(), since: localToEpoch(form.since), until: localToEpoch(form.until) });
  }

  return (
    <form className="filters" onSubmit={submit} aria-label={t("filters")} data-testid="events-filters">
      <TextField name="skin" label={t("skin")} value={form.skin} onValue={set("skin")} errors={errorsOf("skin")} autoComplete="off" />
      <TextField name="since" type="datetime-local" label={t("since")} value={form.since} onValue={set("since")}
                 errors={errorsOf("since")} />
      <TextField name="until" type="datetime-local" label={t("until")} value={form.until} onValue={set("until")}
                 errors={errorsOf("until")} />
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
