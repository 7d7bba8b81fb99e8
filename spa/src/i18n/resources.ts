import enAuth from "../locales/en/auth.json";
import enCommon from "../locales/en/common.json";
import enForms from "../locales/en/forms.json";
import enShell from "../locales/en/shell.json";
import type esAccount from "../locales/es/account.json";
import esAuth from "../locales/es/auth.json";
import esCommon from "../locales/es/common.json";
import esForms from "../locales/es/forms.json";
import type esGames from "../locales/es/games.json";
import type esCashier from "../locales/es/cashier.json";
import type esProfile from "../locales/es/profile.json";
import type esHistory from "../locales/es/history.json";
import type esPages from "../locales/es/pages.json";
import type esLobby from "../locales/es/lobby.json";
import esShell from "../locales/es/shell.json";
import ptAuth from "../locales/pt/auth.json";
import ptCommon from "../locales/pt/common.json";
import ptForms from "../locales/pt/forms.json";
import ptShell from "../locales/pt/shell.json";

export const defaultNS = "common";

/** One namespace per area: common (shared words), shell (header, menus, footer, pages),
 * auth (login, registration, session popups), account (balance, providers, money),
 * forms (field labels, hints and the section 5 validation messages, shared by every form),
 * lobby (home page, banners, carousels, sports events), games (launching and game/content screens),
 * cashier (deposit, withdraw, bank accounts), profile (my balance, profile, documents),
 * history (transactions, game rounds), pages (contact us, legal pages). */
/** Bundled with the app: what the shell and the login popup show before any screen loads. */
export const resources = {
  es: { common: esCommon, shell: esShell, auth: esAuth, forms: esForms },
  pt: { common: ptCommon, shell: ptShell, auth: ptAuth, forms: ptForms },
  en: { common: enCommon, shell: enShell, auth: enAuth, forms: enForms },
} as const;

/** Loaded with the screens that use them, one JSON file per language (i18n/index.ts). */
export const lazyNamespaces = ["account", "lobby", "games", "cashier", "profile", "history", "pages"] as const;

/** Every namespace's keys, Spanish being the reference (i18next.d.ts). */
export type Resources = (typeof resources)["es"] & {
  account: typeof esAccount;
  lobby: typeof esLobby;
  games: typeof esGames;
  cashier: typeof esCashier;
  profile: typeof esProfile;
  history: typeof esHistory;
  pages: typeof esPages;
};

export const namespaces = ["common", "shell", "auth", "forms", ...lazyNamespaces] as const;
