import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import type { AuditFilters, Role } from "../../api/types";
import { TextField } from "../../components/TextField";
import { actionsFor } from "./auditQuery";
import { timeExample, typedTimeToIso } from "../../lib/typedTime";

interface AuditFilterFormProps {
  role: Role | undefined;
  onFilter: (filters: AuditFilters) => void;
}

const EMPTY = { action: "", who: "", skin: "", since: "", until: "" };
const TIMES = ["since", "until"] as const;

/** Which entries: by action, a part of a name or a skin, and time (in UTC, written as the console's
 * language writes it); a time not understood is that field's error, nothing sent. */
export function AuditFilterForm({ role, onFilter }: AuditFilterFormProps) {
  const { t, i18n } = useTranslation("audit");
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const actionId = useId();
  const [form, setForm] = useState(EMPTY);
  const [wrong, setWrong] = useState<string[]>([]);
  const set = (name: keyof typeof EMPTY) => (value: string) => setForm((shown) => ({ ...shown, [name]: value }));
  const example = timeExample(lng);

  function submit(event: FormEvent) {
    event.preventDefault();
    const [since, until] = TIMES.map((field) => typedTimeToIso(form[field], lng));
    const invalid = TIMES.filter((_, index) => [since, until][index] === null);
    setWrong(invalid);
    if (invalid.length === 0) {
      onFilter({ action: form.action, who: form.who, skin: form.skin, since: since ?? undefined, until: until ?? undefined });
    }
  }

  const timeField = (field: (typeof TIMES)[number]) => (
    <TextField name={field} label={t(field)} value={form[field]} onValue={set(field)} autoComplete="off"
               inputMode="numeric" placeholder={example} hint={t("timeHint")}
               errors={wrong.includes(field) ? [t("timeInvalid", { example })] : []} />
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
          setWrong([]);
          onFilter({});
        }}>
          {t("clear")}
        </button>
      </div>
    </form>
  );
}
