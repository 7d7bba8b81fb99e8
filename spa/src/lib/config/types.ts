import type { Locale } from "../../i18n/language";

/** What GET /bff/config tells the SPA about the skin (the gateway's `Skin.public()`). */
export interface Branding {
  logo: string;
  primary: string;
  accent: string;
  background: string;
  surface: string;
  text: string;
  /** The footer's operator line: in the skin's default language, or its only text. */
  operatorLine: string;
  /** The operator line per language, when the skin gives one per language. */
  operatorLines?: Partial<Record<Locale, string>>;
}

export interface Skin {
  id: string;
  name: string;
  currency: string;
  currencySymbol: string;
  defaultLocale: Locale;
  locales: Locale[];
  branding: Branding;
  features: SkinFeatures & SessionFeatures;
  /** The sportsbook page the sports screen frames with a launch token; null when the skin has none. */
  sportsbookUrl: string | null;
  /** The operator's poker client installers (logged-in players only). */
  pokerDownloads: Partial<Record<PokerSystem, string>>;
  /** The https origins a link from the platform may lead to (lib/links); absent from older gateways. */
  linkHosts?: string[];
  /** The skin's maintenance while it is on (null: none; absent from older gateways). */
  maintenance?: Maintenance | null;
}

/** A maintenance window that is on: its expected end (epoch seconds) and the operator's message per language. */
export interface Maintenance {
  until: number;
  message?: Partial<Record<Locale, string>> | null;
}

/** The operator's switches (skins file `features`, the gateway's `Features`): off hides every
 * link to the flow's screens and sends a visit to any of them home (lib/access). */
export interface SkinFeatures {
  deposits: boolean;
  withdrawals: boolean;
}

/** The skin's settings for a player's session (the gateway's `Features` too). */
export interface SessionFeatures {
  /** Every this many minutes of a session a reality check opens in every tab (null or absent: never). */
  reality_check_minutes?: number | null;
}

export type PokerSystem = "android" | "windows" | "mac";

export interface BffConfig {
  skin: Skin;
}
