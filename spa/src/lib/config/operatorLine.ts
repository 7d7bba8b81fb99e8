import type { Locale } from "../../i18n/language";
import type { Branding } from "./types";

/** The footer's operator line in `locale`: the skin's text in that language, else its one text
 * (the default language's). */
export function operatorLine(branding: Branding, locale: Locale): string {
  return branding.operatorLines?.[locale] ?? branding.operatorLine;
}
