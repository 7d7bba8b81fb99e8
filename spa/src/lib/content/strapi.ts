/**
 * Strapi query strings for the CMS collections under /capi (PLATFORM-NOTES "Content"):
 * `filters[field][$eq]=value`, `pagination[pageSize]=n`. The gateway caches each distinct
 * query per skin, so the same screen always asks with the same query.
 */
export const PAGE_SIZE = 100; // Strapi's default maxLimit: every collection here fits in one page

export function strapiQuery(path: string, filters: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [field, value] of Object.entries(filters).sort(([a], [b]) => a.localeCompare(b))) {
    if (value !== undefined) params.set(`filters[${field}][$eq]`, value);
  }
  params.set("pagination[pageSize]", String(PAGE_SIZE));
  return `${path}?${params.toString()}`;
}

/** Only active entries in the wanted language (the CMS filter already asks; this keeps the rule). */
export function activeIn<T extends { status?: string | null; locale?: string | null }>(
  entries: readonly T[],
  locale: string,
): T[] {
  return entries.filter((entry) => (entry.status ?? "active") === "active" && (entry.locale ?? locale) === locale);
}
