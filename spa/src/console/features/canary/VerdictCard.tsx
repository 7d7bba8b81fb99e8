import { useTranslation } from "react-i18next";

import { useFormats, type Formats } from "../../lib/format";
import type { Figures, Thresholds, Verdict } from "./types";
import { iso } from "./words";

type Row = "answers" | "errors" | "refused" | "p99" | "logins" | "money";
const ROWS: Row[] = ["answers", "errors", "refused", "p99", "logins", "money"];

/** One side's figure of a row, as shown: a count, a share, a time; a share with how many it is of. */
function figure(row: Row, side: Figures, format: Formats): string {
  if (row === "answers") return format.number(side.answers);
  if (row === "errors") return format.percent(side.errors);
  if (row === "refused") return format.percent(side.refused);
  if (row === "p99") return format.ms(side.p99S == null ? null : side.p99S * 1000);
  if (row === "logins") return `${format.percent(side.loginSuccess)} (${format.number(side.logins)})`;
  return `${format.percent(side.moneySuccess)} (${format.number(side.money)})`;
}

/** What a row's new figure is held to, in points of a share or milliseconds. */
function useLimit(thresholds: Thresholds) {
  const { t } = useTranslation("canary");
  const format = useFormats();
  const points = (share: number) => format.number(share * 100, 1);
  return (row: Row): string => {
    if (row === "answers") return t("figures.limits.answers", { count: thresholds.minAnswers });
    if (row === "errors") return t("figures.limits.errors", { share: format.percent(thresholds.maxErrorShare) });
    if (row === "refused") return t("figures.limits.refused", { points: points(thresholds.maxRefusalRise) });
    if (row === "p99") return t("figures.limits.p99", { ms: format.ms(thresholds.maxP99S * 1000) });
    if (row === "logins") return t("figures.limits.logins", { points: points(thresholds.maxLoginDrop) });
    return t("figures.limits.money", { points: points(thresholds.maxMoneyDrop) });
  };
}

interface VerdictCardProps {
  verdict: Verdict;
  thresholds: Thresholds;
  /** The sides' base URLs, named in the columns' headers. */
  before: string;
  after: string;
}

/** One check: when, at which share, its outcome and why; both sides' figures side by side, and each one's limit. */
export function VerdictCard({ verdict, thresholds, before, after }: VerdictCardProps) {
  const { t } = useTranslation("canary");
  const format = useFormats();
  const limit = useLimit(thresholds);
  return (
    <article className={`verdict verdict--${verdict.outcome}`} data-testid="canary-verdict" data-outcome={verdict.outcome}>
      <p className="verdict__head">
        <time dateTime={iso(verdict.at) ?? undefined}>{format.dateTime(iso(verdict.at))}</time>
        <span className={`badge badge--verdict-${verdict.outcome}`}>{t(`outcomes.${verdict.outcome}`)}</span>
        <span>{t("figures.atShare", { share: format.percent(verdict.share) })}</span>
      </p>
      {verdict.reasons.length > 0 && (
        <ul className="verdict__reasons" data-testid="verdict-reasons">
          {verdict.reasons.map((reason) => <li key={reason}>{reason}</li>)}
        </ul>
      )}
      <div className="table-scroll">
        <table className="figures cards">
          <caption className="visually-hidden">{t("figures.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("figures.figure")}</th>
              <th scope="col" title={before}>{t("figures.old")}</th>
              <th scope="col" title={after}>{t("figures.new")}</th>
              <th scope="col">{t("figures.limit")}</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => (
              <tr key={row} data-testid={`figure-${row}`}>
                <th scope="row">{t(`figures.rows.${row}`)}</th>
                <td data-label={t("figures.old")} data-testid="figure-old">{figure(row, verdict.old, format)}</td>
                <td data-label={t("figures.new")} data-testid="figure-new">{figure(row, verdict.new, format)}</td>
                <td data-label={t("figures.limit")} className="muted">{limit(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}
