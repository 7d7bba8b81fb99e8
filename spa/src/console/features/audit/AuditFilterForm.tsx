import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import type { AuditFilters, Role } from "../../api/types";
import { TextField } from "../../components/TextField";
import { actionsFor, localToIso } from "./auditQuery";

interface AuditFilterFormProps {
  role: Role | undefined;
  onFilter: (filters: AuditFilters) => void;
}

const EMPTY = { action: "", who: "", skin: "", since: "", until: "" };

/** Which entries: by action, operator, skin and time (the operator's local time). */
export function AuditFilterForm({ role, onFilter }: AuditFilterFormProps) {
  const { t } = useTranslation("audit");
  const actionId = useId();
  const [form, setForm] = useState(EMPTY);
  const set = (name: keyof typeof EMPTY) => (value: string) => setForm((shown) => ({ ...shown, [name]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    onFilter({ action: form.action, who: form.who, skin: form.skin, since: localToIso(form.since), until: localToIso(form.until) });
  }

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
      <TextField name="since" type="datetime-local" label={t("since")} value={form.since} onValue={set("since")} />
      <TextField name="until" type="datetime-local" label={t("until")} value={form.until} onValue={set("until")} />
      <div className="filters__buttons">
        <button type="submit" className="button button--primary" data-testid="audit-filter">
          {t("filter")}
        </button>
        <button type="button" className="button" onClick={() => {
          setForm(EMPTY);
          onFilter({});
        }}>
          {t("clear")}
        </button>
      </div>
    </form>
  );
}
