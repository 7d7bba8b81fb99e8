import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";

import type { Faq } from "../../api/contracts.gen";
import { useGetFaqsQuery } from "../../lib/content/contentApi";
import { useLocale } from "../../i18n/useLocale";

type Topic = Faq["topic"];

/** The six topics of the footer's Frequent Questions, in the order a player reads them. */
export const FAQ_TOPICS: readonly Topic[] = ["deposits", "withdrawals", "verification", "bonuses", "responsibleGaming", "account"];

/** The anchor the footer and the side menu link to (`/contactus#faq`). */
export const FAQ_ANCHOR = "faq";

interface Entry {
  id: string;
  topic: Topic;
  question: string;
  answer: string;
}

/** The built-in answers, one per topic, when the platform's CMS has none or fails. */
function useBuiltIn(): Entry[] {
  const { t } = useTranslation("pages");
  return FAQ_TOPICS.map((topic) => ({
    id: `built-in-${topic}`,
    topic,
    question: t(`faq.builtIn.${topic}.question`),
    answer: t(`faq.builtIn.${topic}.answer`),
  }));
}

/** Frequent questions from the CMS (`/capi/faqs`), grouped by topic; scrolled to on `#faq`. */
export function FaqSection() {
  const { t } = useTranslation("pages");
  const titleId = useId();
  const locale = useLocale();
  const { data, isLoading, isError } = useGetFaqsQuery(locale);
  const builtIn = useBuiltIn();
  const fromCms = (data ?? []).map((faq) => ({ ...faq, id: String(faq.id) }));
  const entries = fromCms.length > 0 ? fromCms : builtIn;
  const ready = !isLoading || isError;
  useScrollToAnchor(ready);

  return (
    <section id={FAQ_ANCHOR} className="faq panel" aria-labelledby={titleId} data-testid="faq" data-source={fromCms.length > 0 ? "cms" : "built-in"}>
      <h2 id={titleId} className="faq__title">
        {t("faq.title")}
      </h2>
      {ready &&
        FAQ_TOPICS.map((topic) => {
          const questions = entries.filter((entry) => entry.topic === topic);
          if (questions.length === 0) return null;
          return (
            <section key={topic} className="faq__topic" aria-labelledby={`${titleId}-${topic}`} data-testid={`faq-${topic}`}>
              <h3 id={`${titleId}-${topic}`} className="faq__topic-title">
                {t(`faq.topics.${topic}`)}
              </h3>
              <dl className="faq__list">
                {questions.map((entry) => (
                  <div key={entry.id} className="faq__item">
                    <dt className="faq__question">{entry.question}</dt>
                    <dd className="faq__answer">{entry.answer}</dd>
                  </div>
                ))}
              </dl>
            </section>
          );
        })}
    </section>
  );
}

/** A link to `#faq` lands on the answers once they are on screen (the router does not scroll to hashes). */
function useScrollToAnchor(ready: boolean) {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (!ready || hash !== `#${FAQ_ANCHOR}`) return;
    document.getElementById(FAQ_ANCHOR)?.scrollIntoView({ block: "start" });
  }, [ready, hash, key]);
}
