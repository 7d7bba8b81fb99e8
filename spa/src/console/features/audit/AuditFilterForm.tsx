import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import type { AuditFilters, Role } from "../../api/types";
import { TextField } from "../../components/TextField";
import { TimeField } from "../../components/TimeField";
import { typedRange, type TimeName } from "../../lib/typedTime";
import { actionsFor } from "./auditQuery";

interface AuditFilterFormProps {
  role: Role | undefined;
  onFilter: (filters: AuditFilters) => void;
}

const EMPTY = { action: "", who: "", skin: "", since: "", until: "" };
/** Which entries: by action, a part of a name or a skin, and time (in UTC, written as the console's
 * language writes it); a time not understood is that field's error, nothing sent. */
export function AuditFilterForm({ role, onFilter }: AuditFilterFormProps) {
  const { t, i18n } = useTranslation("audit");
  const actionId = useId();
  const [form, setForm] = useState(EMPTY);
  const [unread, setUnread] = useState<TimeName[]>([]);
  const set = (name: keyof typeof EMPTY) => (value: string) => setForm((shown) => ({ ...shown, [name]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const times = typedRange(form.since, form.until, i18n.resolvedLanguage ?? i18n.language);
    setUnread(times.unread);
    if (times.unread.length === 0) {
      onFilter({ action: form.action, who: form.who, skin: form.skin, since: times.since, until: times.until });
    }
  }

  const timeField = (field: TimeName) => (
    <TimeField name={field} label={t(field)} value={form[field]} onValue={set(field)} unread={unread.includes(field)} />
  );

  return (
    <form className="filters" onSubmit={submit} aria-label={t("filters")} data-testid="audit-filters">
      <div className="field">
        <label className="field__label" htmlFor={actionId}>
          {t("action")}
        </label>
        <select id={actionId} name="action" value={form.action} onChange={(event) => set("action")(event.target.value)}>
          <option value="">{t("anyAction")}</option>
          {actionsFor(role).map((action) => (
            <option key={action} value={action}>
              {t(`actions.${action}`)}
            </option>
          ))}
        </select>
      </div>
      <TextField name="who" label={t("who")} value={form.who} onValue={set("who")} autoComplete="off" />
      <TextField name="skin" label={t("skin")} value={form.skin} onValue={set("skin")} autoComplete="off" />
      {timeField("since")}
      {timeField("until")}
      <div className="filters__buttons">
        <button type="submit" className="button button--primary" data-testid="audit-filter">
          {t("filter")}
        </button>
        <button type="button" className="button" onClick={() => {
          setForm(EMPTY);
          setUnread([]);
          onFilter({});
        }}>
          {t("clear")}
        </button>
      </div>
    </form>
  );
}
