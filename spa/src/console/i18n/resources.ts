import type esActions from "../locales/es/actions.json";
import type esAudit from "../locales/es/audit.json";
import type esCanary from "../locales/es/canary.json";
import type esChanges from "../locales/es/changes.json";
import type esCommon from "../locales/es/common.json";
import type esEvents from "../locales/es/events.json";
import type esHistory from "../locales/es/history.json";
import type esInstances from "../locales/es/instances.json";
import type esOperators from "../locales/es/operators.json";
import type esOverview from "../locales/es/overview.json";
import type esPlans from "../locales/es/plans.json";
import type esSignin from "../locales/es/signin.json";
import type esStatus from "../locales/es/status.json";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../api/locales.gen";

// The languages come from contracts/locales.py (`python -m contracts export`), as the player site's.
export { DEFAULT_LOCALE, LOCALES, type Locale };

export const defaultNS = "common";

/** One namespace per view, and common for the shell, the errors and the shared parts. Spanish is
 * the reference: a key missing from it is a type error in t(). */
export type Resources = {
  common: typeof esCommon;
  signin: typeof esSignin;
  overview: typeof esOverview;
  changes: typeof esChanges;
  history: typeof esHistory;
  instances: typeof esInstances;
  audit: typeof esAudit;
  actions: typeof esActions;
  operators: typeof esOperators;
  status: typeof esStatus;
  events: typeof esEvents;
  plans: typeof esPlans;
  canary: typeof esCanary;
};

export const namespaces: (keyof Resources)[] = ["common", "signin", "overview", "changes", "history", "instances", "audit", "actions", "operators", "status", "events", "plans", "canary"];

/** The console is small (every language together is a few kB): all of it is bundled, each
 * language's files found by its folder, src/console/locales/<lang>/. */
const files = import.meta.glob<{ default: object }>("../locales/*/*.json", { eager: true });
export const resources = Object.fromEntries(
  LOCALES.map((lng) => [lng, Object.fromEntries(namespaces.map((ns) => [ns, files[`../locales/${lng}/${ns}.json`]?.default ?? {}]))]),
) as Record<Locale, Resources>;
