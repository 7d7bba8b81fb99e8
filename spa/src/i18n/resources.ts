import enAccount from "../locales/en/account.json";
import enAuth from "../locales/en/auth.json";
import enCommon from "../locales/en/common.json";
import enForms from "../locales/en/forms.json";
import enGames from "../locales/en/games.json";
import enLobby from "../locales/en/lobby.json";
import enShell from "../locales/en/shell.json";
import esAccount from "../locales/es/account.json";
import esAuth from "../locales/es/auth.json";
import esCommon from "../locales/es/common.json";
import esForms from "../locales/es/forms.json";
import esGames from "../locales/es/games.json";
import esLobby from "../locales/es/lobby.json";
import esShell from "../locales/es/shell.json";
import ptAccount from "../locales/pt/account.json";
import ptAuth from "../locales/pt/auth.json";
import ptCommon from "../locales/pt/common.json";
import ptForms from "../locales/pt/forms.json";
import ptGames from "../locales/pt/games.json";
import ptLobby from "../locales/pt/lobby.json";
import ptShell from "../locales/pt/shell.json";

export const defaultNS = "common";

/** One namespace per area: common (shared words), shell (header, menus, footer, pages),
 * auth (login, registration, session popups), account (balance, providers, money),
 * forms (field labels, hints and the section 5 validation messages, shared by every form),
 * lobby (home page, banners, carousels, sports events), games (launching and game/content screens). */
export const resources = {
  es: { common: esCommon, shell: esShell, auth: esAuth, account: esAccount, forms: esForms, lobby: esLobby, games: esGames },
  pt: { common: ptCommon, shell: ptShell, auth: ptAuth, account: ptAccount, forms: ptForms, lobby: ptLobby, games: ptGames },
  en: { common: enCommon, shell: enShell, auth: enAuth, account: enAccount, forms: enForms, lobby: enLobby, games: enGames },
} as const;

export const namespaces = ["common", "shell", "auth", "account", "forms", "lobby", "games"] as const;
