import { useId } from "react";
import { useTranslation } from "react-i18next";

import { pageCount } from "./dates";

interface PagerProps {
  total: number;
  page: number;
  size: number;
  sizes: readonly number[];
  onPage: (page: number) => void;
  /** A new size starts again at page 1. */
  onSize: (size: number) => void;
  label: string;
}

/** Pages of a history table and the page-size selector. */
export function Pager({ total, page, size, sizes, onPage, onSize, label }: PagerProps) {
  const { t } = useTranslation("history");
  const sizeId = useId();
  const pages = pageCount(total, size);
  return (
    <nav className="pager" aria-label={label}>
      <label htmlFor={sizeId}>{t("pager.size")}</label>
      <select id={sizeId} className="input" value={size} onChange={(event) => onSize(Number(event.target.value))}>
        {sizes.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <button type="button" className="button button--ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("pager.previous")}
      </button>
      <span aria-live="polite">{t("pager.page", { page, pages })}</span>
      <button type="button" className="button button--ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("pager.next")}
      </button>
    </nav>
  );
}
