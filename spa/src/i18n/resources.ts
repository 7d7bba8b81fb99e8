import enAccount from "../locales/en/account.json";
import enAuth from "../locales/en/auth.json";
import enCommon from "../locales/en/common.json";
import enShell from "../locales/en/shell.json";
import esAccount from "../locales/es/account.json";
import esAuth from "../locales/es/auth.json";
import esCommon from "../locales/es/common.json";
import esShell from "../locales/es/shell.json";
import ptAccount from "../locales/pt/account.json";
import ptAuth from "../locales/pt/auth.json";
import ptCommon from "../locales/pt/common.json";
import ptShell from "../locales/pt/shell.json";

export const defaultNS = "common";

/** One namespace per area: common (shared words), shell (header, menus, footer, pages),
 * auth (login, registration, session popups), account (balance, providers, money). */
export const resources = {
  es: { common: esCommon, shell: esShell, auth: esAuth, account: esAccount },
  pt: { common: ptCommon, shell: ptShell, auth: ptAuth, account: ptAccount },
  en: { common: enCommon, shell: enShell, auth: enAuth, account: enAccount },
} as const;

export const namespaces = ["common", "shell", "auth", "account"] as const;
