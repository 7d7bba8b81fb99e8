import type { Branding } from "./types";

/** The CSS custom properties the stylesheets read, and the branding colour behind each. */
const BRANDING_PROPERTIES = {
  "--color-primary": "primary",
  "--color-accent": "accent",
  "--color-bg": "background",
  "--color-surface": "surface",
  "--color-text": "text",
} as const satisfies Record<string, keyof Branding>;

/** Screens of 990px or less get the mobile theme: the browser's own bar
 * takes the colour of the header under it. */
export const MOBILE_THEME_MEDIA = "(max-width: 990px)";

/** Paints the page in the skin's colours, and a phone's or tablet's browser bar in its header's. */
export function applyBranding(branding: Branding, root: HTMLElement = document.documentElement): void {
  for (const [property, colour] of Object.entries(BRANDING_PROPERTIES)) {
    root.style.setProperty(property, branding[colour]);
  }
  setMobileTheme(branding.surface, root.ownerDocument);
}

function setMobileTheme(colour: string, doc: Document): void {
  let meta = doc.head.querySelector<HTMLMetaElement>(`meta[name="theme-color"][media="${MOBILE_THEME_MEDIA}"]`);
  if (!meta) {
    meta = doc.createElement("meta");
    meta.name = "theme-color";
    meta.setAttribute("media", MOBILE_THEME_MEDIA);
    doc.head.append(meta);
  }
  meta.content = colour;
}
