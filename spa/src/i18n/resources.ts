import type esAccount from "../locales/es/account.json";
import type esAuth from "../locales/es/auth.json";
import type esCommon from "../locales/es/common.json";
import type esForms from "../locales/es/forms.json";
import type esGames from "../locales/es/games.json";
import type esCashier from "../locales/es/cashier.json";
import type esProfile from "../locales/es/profile.json";
import type esHistory from "../locales/es/history.json";
import type esPages from "../locales/es/pages.json";
import type esLobby from "../locales/es/lobby.json";
import type esShell from "../locales/es/shell.json";
import { LOCALES, type Locale } from "./language";

export const defaultNS = "common";

/** One namespace per area: common (shared words), shell (header, menus, footer, pages),
 * auth (login, registration, session popups), account (balance, providers, money),
 * forms (field labels, hints and the validation messages, shared by every form),
 * lobby (home page, banners, carousels, sports events), games (launching and game/content screens),
 * cashier (deposit, withdraw, bank accounts), profile (my balance, profile, documents),
 * history (transactions, game rounds), pages (contact us, legal pages). */
/** Bundled with the app: what the shell shows before any screen loads, in every language of
 * LOCALES (a language's files are found by its folder, src/locales/<lang>/). */
type Bundled = { common: typeof esCommon; shell: typeof esShell };
const bundledFiles = import.meta.glob<{ default: object }>("../locales/*/{common,shell}.json", { eager: true });
const bundled = (lng: Locale, ns: keyof Bundled) => bundledFiles[`../locales/${lng}/${ns}.json`]?.default ?? {};
export const resources = Object.fromEntries(
  LOCALES.map((lng) => [lng, { common: bundled(lng, "common"), shell: bundled(lng, "shell") }]),
) as Record<Locale, Bundled>;

/** Loaded with the screens and popups that use them, one JSON file per language (i18n/index.ts):
 * the login popup's texts and the forms' labels and messages come with the popup's code. */
export const lazyNamespaces = ["auth", "forms", "account", "lobby", "games", "cashier", "profile", "history", "pages"] as const;

/** Every namespace's keys, Spanish being the reference (i18next.d.ts). */
export type Resources = Bundled & {
  auth: typeof esAuth;
  forms: typeof esForms;
  account: typeof esAccount;
  lobby: typeof esLobby;
  games: typeof esGames;
  cashier: typeof esCashier;
  profile: typeof esProfile;
  history: typeof esHistory;
  pages: typeof esPages;
};

export const namespaces = ["common", "shell", ...lazyNamespaces] as const;
