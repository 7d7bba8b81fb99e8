import type { StatusLevel } from "./types";

const COLORS: Record<StatusLevel, string> = { ok: "#1a7f37", degraded: "#b26a00", down: "#c62828" };

/** The favicon for a level: a green, amber or red dot (an SVG data URL, allowed by the page's img-src). */
export function faviconFor(level: StatusLevel): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${COLORS[level]}"/></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The page's title and icon say the cluster's state; `headline` is null when all is well. */
export function showOnPage(level: StatusLevel, headline: string | null, title: string) {
  document.title = headline ? `${level === "down" ? "⛔" : "⚠"} ${headline} · ${title}` : title;
  let icon = document.querySelector<HTMLLinkElement>("link[rel~='icon']");
  if (!icon) {
    icon = document.createElement("link");
    icon.rel = "icon";
    document.head.appendChild(icon);
  }
  icon.type = "image/svg+xml";
  icon.href = faviconFor(level);
  icon.dataset.level = level;
}

/** The page's title and icon as the page had them before (signed out: no state to say). */
export function clearFromPage(title: string) {
  document.title = title;
  const icon = document.querySelector<HTMLLinkElement>("link[rel~='icon']");
  if (icon) {
    icon.href = "data:,";
    delete icon.dataset.level;
  }
}
