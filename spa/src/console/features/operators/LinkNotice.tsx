import { useTranslation } from "react-i18next";

import { useFormats } from "../../lib/format";
import type { Linked } from "./operatorsApi";

/** A new one-time sign-in link, shown once, to hand to the operator (its token is in the fragment). */
export function LinkNotice({ linked }: { linked: Linked }) {
  const { t } = useTranslation("operators");
  const format = useFormats();
  const url = `${window.location.origin}${linked.link.path}`;
  return (
    <div className="notice notice--ok link-notice" role="status" data-testid="link-notice">
      <p>{t("link.made", { name: linked.operator.name, when: format.dateTime(linked.link.expiresAt) })}</p>
      <input readOnly value={url} aria-label={t("link.label")} data-testid="link-url" onFocus={(e) => e.target.select()} />
      <p className="field__hint">{t("link.once")}</p>
    </div>
  );
}
