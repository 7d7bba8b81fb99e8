import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import type { MaintenanceWindow, Skin } from "../../api/types";
import { ErrorNotice } from "../../components/ErrorNotice";
import { ReasonField } from "../../components/ReasonField";
import { TextField } from "../../components/TextField";
import { TimeField } from "../../components/TimeField";
import { useErrorText } from "../../lib/errorText";
import { useFormats } from "../../lib/format";
import { typedTimeToIso } from "../../lib/typedTime";
import { useEndMaintenanceMutation, useSetMaintenanceMutation } from "./plansApi";

const LANGUAGES = ["es", "pt", "en"] as const;

/** Epoch seconds of a typed UTC time; undefined when empty, null when it cannot be read. */
export function typedEpoch(text: string, lng: string): number | null | undefined {
  const iso = typedTimeToIso(text, lng);
  return typeof iso === "string" ? Date.parse(iso) / 1000 : iso;
}

export const isoOf = (epoch: number | null | undefined) => (epoch ? new Date(epoch * 1000).toISOString() : null);

/** One skin's maintenance: what is set (on now, or to come), and the form that sets or ends it. */
export function SkinMaintenance({ skin, window }: { skin: Skin; window: MaintenanceWindow | undefined }) {
  const { t, i18n } = useTranslation("plans");
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const text = useErrorText();
  const format = useFormats();
  const [from, setFrom] = useState("");
  const [until, setUntil] = useState("");
  const [message, setMessage] = useState<Record<string, string>>({});
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  const [setMaintenance, setting] = useSetMaintenanceMutation();
  const [endMaintenance, ending] = useEndMaintenanceMutation();
  const fromAt = typedEpoch(from, lng);
  const untilAt = typedEpoch(until, lng);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (fromAt === null || untilAt === null) return;
    const answer = await setMaintenance({ skin: skin.id, from: fromAt ?? null, until: untilAt ?? 0, reason, message });
    setProblem(answer.error ? toConsoleError(answer.error) : null);
  }

  async function end() {
    const answer = await endMaintenance({ skin: skin.id, reason });
    setProblem(answer.error ? toConsoleError(answer.error) : null);
  }

  const fieldErrors = (name: string) => errorsOf(problem, name).map(text.field);
  return (
    <article className="card plan-skin" id={`maintenance-${skin.id}`} data-testid={`maintenance-${skin.id}`}>
      <h3>{skin.name}</h3>
      <p className={window?.active ? "notice notice--warn" : "plan-skin__state"} data-testid="maintenance-state">
        {window
          ? t(window.active ? "maintenance.on" : "maintenance.later", {
              from: format.dateTime(isoOf(window.from)), until: format.dateTime(isoOf(window.until)), by: window.by,
            })
          : t("maintenance.none")}
      </p>
      <form className="plan-form" onSubmit={(event) => void submit(event)} noValidate>
        <TimeField name="from" label={t("maintenance.from")} value={from} onValue={setFrom} unread={fromAt === null}
                   errors={fieldErrors("from")} />
        <TimeField name="until" label={t("maintenance.until")} value={until} onValue={setUntil}
                   unread={untilAt === null} errors={fieldErrors("until")} />
        {LANGUAGES.map((lang) => (
          <TextField key={lang} name={`message-${lang}`} label={t("maintenance.message", { lang })}
                     value={message[lang] ?? ""} maxLength={500} errors={fieldErrors(`message.${lang}`)}
                     onValue={(value) => setMessage({ ...message, [lang]: value })} />
        ))}
        <ReasonField value={reason} onValue={setReason} errors={fieldErrors("reason")} />
        <ErrorNotice error={problem} shownFields={["from", "until", "reason", ...LANGUAGES.map((l) => `message.${l}`)]} />
        <div className="dialog-actions">
          <button type="submit" className="button button--primary" disabled={setting.isLoading}
                  data-testid="maintenance-set">
            {from ? t("maintenance.schedule") : t("maintenance.startNow")}
          </button>
          {window && (
            <button type="button" className="button" disabled={ending.isLoading} onClick={() => void end()}
                    data-testid="maintenance-end">
              {t("maintenance.end")}
            </button>
          )}
        </div>
      </form>
    </article>
  );
}
