import type { EventBanner } from "../../api/contracts.gen";
import type { Locale } from "../../i18n/language";

/** The event a player has open, under the browser storage key `event`. */
export const EVENT_KEY = "event";

export interface StoredEvent {
  eventName: string;
  routerLink: string;
  locale: Locale;
}

export function rememberEvent(event: StoredEvent): void {
  localStorage.setItem(EVENT_KEY, JSON.stringify(event));
}

export function storedEvent(): StoredEvent | null {
  try {
    const stored = JSON.parse(localStorage.getItem(EVENT_KEY) ?? "null") as Partial<StoredEvent> | null;
    return stored && typeof stored.eventName === "string" && typeof stored.routerLink === "string" && typeof stored.locale === "string" ? (stored as StoredEvent) : null;
  } catch {
    return null;
  }
}

/** The CMS's event whose banner leads to `path` (the screen showing it). */
export function eventAt(banners: readonly EventBanner[] | undefined, path: string): EventBanner | undefined {
  return banners?.find((banner) => banner.routerLink.toLowerCase() === path.toLowerCase());
}
