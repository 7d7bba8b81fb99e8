import { useTranslation } from "react-i18next";

import type { PlatformError } from "../../api/types";
import { useFormats } from "../../lib/format";

/** The platform's own refusals of a skin's calls (HTTP 200 `success: false`) by code and route class,
 * most first, with whose counts they are; nothing when there were none. */
export function PlatformErrors({ skin, errors, scope }: { skin: string; errors: PlatformError[]; scope: "instance" | "workers" }) {
  const { t } = useTranslation("overview");
  const format = useFormats();
  if (errors.length === 0) return null;
  return (
    <div className="notice notice--warn" data-testid={`platform-errors-${skin}`}>
      <p>{t("platformErrors.title", { counted: t(`breaches.scope.${scope}`) })}</p>
      <ul>
        {errors.map((error) => (
          <li key={`${error.routeClass}/${error.code}`} data-testid="platform-error">
            <code>{error.code === "none" ? t("platformErrors.noCode") : error.code}</code>{" "}
            ({t(`platformErrors.routeClass.${error.routeClass}`, { defaultValue: error.routeClass })}):{" "}
            {t("platformErrors.count", { count: error.count, formatted: format.number(error.count) })}
          </li>
        ))}
      </ul>
    </div>
  );
}
