import type { Branding } from "./types";

/** The CSS custom properties the stylesheets read, and the branding colour behind each. */
const BRANDING_PROPERTIES = {
  "--color-primary": "primary",
  "--color-accent": "accent",
  "--color-bg": "background",
  "--color-surface": "surface",
  "--color-text": "text",
} as const satisfies Record<string, keyof Branding>;

/** Paints the page in the skin's colours. */
export function applyBranding(branding: Branding, root: HTMLElement = document.documentElement): void {
  for (const [property, colour] of Object.entries(BRANDING_PROPERTIES)) {
    root.style.setProperty(property, branding[colour]);
  }
}
