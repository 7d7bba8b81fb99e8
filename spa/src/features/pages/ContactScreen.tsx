import { useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { contractRules } from "../../api/rules.gen";
import { replyFailure, toAppError } from "../../api/errors";
import { useGetProfileQuery } from "../../lib/player/accountApi";
import { useGetConfigQuery } from "../../lib/config/configApi";
import { FaqSection } from "./FaqSection";
import { useContactUsMutation } from "./pagesApi";
import { useSession } from "../../lib/session/useSession";
import { TextField } from "../../forms/Field";
import { lettersAndDigitsOnly } from "../../forms/keys";
import { useForm, useFormMessage } from "../../forms/useForm";
import { useLocale } from "../../i18n/useLocale";
import "../../styles/pages.css";

/** The sent or failed message clears after 10 s. */
export const CONTACT_MESSAGE_MS = 10_000;

const rules = contractRules.forms.contact;
const EMPTY = { firstName: "", email: "", subject: "", userQuestion: "" };

/** Contact us: for visitors and players; the player's login and names go with the message. */
export function ContactScreen() {
  const { t } = useTranslation("pages");
  const tf = useTranslation("forms").t;
  const formMessage = useFormMessage();
  const id = useId();
  const locale = useLocale();
  const { loggedIn } = useSession();
  const profile = useGetProfileQuery(undefined, { skip: !loggedIn }).data;
  const skin = useGetConfigQuery().data?.skin;
  const [send, { isLoading }] = useContactUsMutation();
  const form = useForm(rules, EMPTY);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), CONTACT_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid || isLoading) return;
    const result = await send({
      face: skin?.id ?? "",
      lang: locale,
      loginName: profile?.login ?? null,
      firstName: String(form.values.firstName),
      lastName: profile?.lastName ?? null,
      email: String(form.values.email).trim().toLowerCase(),
      subject: String(form.values.subject).trim(),
      userQuestion: String(form.values.userQuestion).trim(),
    });
    if (result.error || result.data.success === false) {
      const text = result.error ? toAppError(result.error).message : replyFailure(result.data);
      setOutcome({ ok: false, text: formMessage(text) });
      return;
    }
    form.reset();
    setOutcome({ ok: true, text: t("contact.sent") });
  }

  return (
    <section className="screen page">
      <h1 className="screen__title">{t("contact.title")}</h1>
      <p className="page__lead">{t("contact.lead")}</p>
      <form className="contact-form panel" noValidate onSubmit={(event) => void submit(event)} aria-describedby={outcome ? `${id}-outcome` : undefined}>
        <TextField name="firstName" label={t("contact.name")} autoComplete="given-name" maxLength={15} value={String(form.values.firstName)} error={form.errors.firstName} onValue={(v) => form.set("firstName", v)} onKeyDown={lettersAndDigitsOnly} onBlur={() => form.touch("firstName")} />
        <TextField name="email" type="email" label={tf("labels.email")} autoComplete="email" value={String(form.values.email)} error={form.errors.email} onValue={(v) => form.set("email", v)} onBlur={() => form.touch("email")} />
        <TextField name="subject" label={t("contact.subject")} maxLength={120} value={String(form.values.subject)} error={form.errors.subject} onValue={(v) => form.set("subject", v)} onBlur={() => form.touch("subject")} />
        <div className={form.errors.userQuestion ? "field field--invalid" : "field"}>
          <label className="field__label" htmlFor={`${id}-message`}>
            {t("contact.message")}
          </label>
          <textarea
            id={`${id}-message`}
            className="input"
            name="userQuestion"
            rows={6}
            maxLength={2000}
            value={String(form.values.userQuestion)}
            aria-invalid={form.errors.userQuestion ? true : undefined}
            aria-describedby={form.errors.userQuestion ? `${id}-message-error` : undefined}
            onChange={(event) => form.set("userQuestion", event.target.value)}
            onBlur={() => form.touch("userQuestion")}
          />
          {form.errors.userQuestion && (
            <p id={`${id}-message-error`} className="field__error" role="alert">
              {form.errors.userQuestion}
            </p>
          )}
        </div>
        {outcome && (
          <p id={`${id}-outcome`} className={outcome.ok ? "page__notice page__notice--ok" : "page__notice"} role={outcome.ok ? "status" : "alert"} data-testid="contact-outcome">
            {outcome.text}
          </p>
        )}
        {/* A small loader while sending. */}
        <button type="submit" className="button button--primary" disabled={!form.valid || isLoading} aria-busy={isLoading} data-testid="contact-send">
          {isLoading && <span className="spinner" aria-hidden="true" />}
          {isLoading ? t("contact.sending") : t("contact.send")}
        </button>
      </form>
      <FaqSection />
    </section>
  );
}
