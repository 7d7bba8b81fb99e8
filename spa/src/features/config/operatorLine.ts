import type { Locale } from "../../i18n/language";
import type { Skin } from "./types";

/** The footer's operator line in `locale`: the skin's one text, or its text in that language,
 * else in the skin's default language. */
export function operatorLine(skin: Skin, locale: Locale): string {
  const line = skin.branding.operatorLine;
  if (typeof line === "string") return line;
  return line[locale] ?? line[skin.defaultLocale] ?? "";
}
