import enActions from "../locales/en/actions.json";
import enAudit from "../locales/en/audit.json";
import enChanges from "../locales/en/changes.json";
import enCommon from "../locales/en/common.json";
import enHistory from "../locales/en/history.json";
import enInstances from "../locales/en/instances.json";
import enOverview from "../locales/en/overview.json";
import enSignin from "../locales/en/signin.json";
import esActions from "../locales/es/actions.json";
import esAudit from "../locales/es/audit.json";
import esChanges from "../locales/es/changes.json";
import esCommon from "../locales/es/common.json";
import esHistory from "../locales/es/history.json";
import esInstances from "../locales/es/instances.json";
import esOverview from "../locales/es/overview.json";
import esSignin from "../locales/es/signin.json";
import ptActions from "../locales/pt/actions.json";
import ptAudit from "../locales/pt/audit.json";
import ptChanges from "../locales/pt/changes.json";
import ptCommon from "../locales/pt/common.json";
import ptHistory from "../locales/pt/history.json";
import ptInstances from "../locales/pt/instances.json";
import ptOverview from "../locales/pt/overview.json";
import ptSignin from "../locales/pt/signin.json";

export const LOCALES = ["es", "pt", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "es";

export const defaultNS = "common";

/** One namespace per view, and common for the shell, the errors and the shared parts. The console
 * is small (every language together is a few kB): all of it is bundled. */
export const resources = {
  es: { common: esCommon, signin: esSignin, overview: esOverview, changes: esChanges, history: esHistory,
        instances: esInstances, audit: esAudit, actions: esActions },
  pt: { common: ptCommon, signin: ptSignin, overview: ptOverview, changes: ptChanges, history: ptHistory,
        instances: ptInstances, audit: ptAudit, actions: ptActions },
  en: { common: enCommon, signin: enSignin, overview: enOverview, changes: enChanges, history: enHistory,
        instances: enInstances, audit: enAudit, actions: enActions },
} as const;

/** Spanish is the reference: a key missing from it is a type error in t(). */
export type Resources = (typeof resources)["es"];

export const namespaces = Object.keys(resources.es) as (keyof Resources)[];
