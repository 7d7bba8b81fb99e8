import enAccount from "../locales/en/account.json";
import enAuth from "../locales/en/auth.json";
import enCommon from "../locales/en/common.json";
import enForms from "../locales/en/forms.json";
import enGames from "../locales/en/games.json";
import enCashier from "../locales/en/cashier.json";
import enProfile from "../locales/en/profile.json";
import enHistory from "../locales/en/history.json";
import enPages from "../locales/en/pages.json";
import enLobby from "../locales/en/lobby.json";
import enShell from "../locales/en/shell.json";
import esAccount from "../locales/es/account.json";
import esAuth from "../locales/es/auth.json";
import esCommon from "../locales/es/common.json";
import esForms from "../locales/es/forms.json";
import esGames from "../locales/es/games.json";
import esCashier from "../locales/es/cashier.json";
import esProfile from "../locales/es/profile.json";
import esHistory from "../locales/es/history.json";
import esPages from "../locales/es/pages.json";
import esLobby from "../locales/es/lobby.json";
import esShell from "../locales/es/shell.json";
import ptAccount from "../locales/pt/account.json";
import ptAuth from "../locales/pt/auth.json";
import ptCommon from "../locales/pt/common.json";
import ptForms from "../locales/pt/forms.json";
import ptGames from "../locales/pt/games.json";
import ptCashier from "../locales/pt/cashier.json";
import ptProfile from "../locales/pt/profile.json";
import ptHistory from "../locales/pt/history.json";
import ptPages from "../locales/pt/pages.json";
import ptLobby from "../locales/pt/lobby.json";
import ptShell from "../locales/pt/shell.json";

export const defaultNS = "common";

/** One namespace per area: common (shared words), shell (header, menus, footer, pages),
 * auth (login, registration, session popups), account (balance, providers, money),
 * forms (field labels, hints and the section 5 validation messages, shared by every form),
 * lobby (home page, banners, carousels, sports events), games (launching and game/content screens),
 * cashier (deposit, withdraw, bank accounts), profile (my balance, profile, documents),
 * history (transactions, game rounds), pages (contact us, legal pages). */
export const resources = {
  es: { common: esCommon, shell: esShell, auth: esAuth, account: esAccount, forms: esForms, lobby: esLobby, games: esGames, cashier: esCashier, profile: esProfile, history: esHistory, pages: esPages },
  pt: { common: ptCommon, shell: ptShell, auth: ptAuth, account: ptAccount, forms: ptForms, lobby: ptLobby, games: ptGames, cashier: ptCashier, profile: ptProfile, history: ptHistory, pages: ptPages },
  en: { common: enCommon, shell: enShell, auth: enAuth, account: enAccount, forms: enForms, lobby: enLobby, games: enGames, cashier: enCashier, profile: enProfile, history: enHistory, pages: enPages },
} as const;

export const namespaces = ["common", "shell", "auth", "account", "forms", "lobby", "games", "cashier", "profile", "history", "pages"] as const;
