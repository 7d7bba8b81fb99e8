import type { Locale } from "../../i18n/language";

/** What GET /bff/config tells the SPA about the skin (the gateway's `Skin.public()`). */
export interface Branding {
  logo: string;
  primary: string;
  accent: string;
  background: string;
  surface: string;
  text: string;
  operatorLine: string;
}

export interface Skin {
  id: string;
  name: string;
  currency: string;
  currencySymbol: string;
  defaultLocale: Locale;
  locales: Locale[];
  branding: Branding;
  features: Record<string, boolean>;
}

export interface BffConfig {
  skin: Skin;
}
