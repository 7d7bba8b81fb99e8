import { useMemo } from "react";
import { useTranslation } from "react-i18next";

import type { HeaderLink } from "../api/contracts.gen";
import { useLocale } from "../i18n/useLocale";
import type { Locale } from "../i18n/language";
import { useGetHeaderLinksQuery } from "../lib/content/contentApi";
import type { FollowedLink } from "../lib/links/links";
import { usePlatformLink } from "../lib/links/usePlatformLink";
import type { ProviderFlags } from "../lib/providers/flags";
import { visible, type MenuEntry } from "./menu";

/** A menu entry as shown: where it leads, its name, and the CMS's icon when it has one. */
export type ShownEntry<T extends MenuEntry = MenuEntry> = T & { link: FollowedLink; text: string; icon: string | null };

/** The link's name in `locale`: the translated names are Spanish and Portuguese, `name` the rest. */
export function headerLinkName(link: HeaderLink, locale: Locale): string | undefined {
  return (locale === "en" ? link.name : link.translatedNames[locale]) || undefined;
}

/** The header links of the CMS (`/capi/header-links`) by id; empty while it has none. */
export function useHeaderLinks(): ReadonlyMap<number, HeaderLink> {
  const { data } = useGetHeaderLinksQuery();
  return useMemo(() => new Map((data ?? []).map((link) => [link.id, link])), [data]);
}

/** `entries` the flags allow, named and addressed by the CMS's header links; today's built-in
 * list (`menu.ts`) for any id the CMS does not give, whose url the link rule refuses (lib/links),
 * and while the CMS or the skin has not answered or failed. */
export function useMenuEntries<T extends MenuEntry>(entries: T[], flags: ProviderFlags): ShownEntry<T>[] {
  const { t } = useTranslation("shell");
  const locale = useLocale();
  const links = useHeaderLinks();
  const decide = usePlatformLink();
  return visible(entries, flags).map((entry) => {
    const link = entry.id === undefined ? undefined : links.get(entry.id);
    const decision = link && !entry.fixedPath ? decide(link.url) : null;
    const builtIn: FollowedLink = { kind: "site", path: entry.path };
    return {
      ...entry,
      link: decision && decision.kind !== "refused" ? decision : builtIn,
      text: (link && headerLinkName(link, locale)) ?? t(entry.label),
      icon: link?.icon ?? null,
    };
  });
}
