import "i18next";

import type { defaultNS, Resources } from "./resources";

// Spanish is the reference language: a key missing from it is a type error in t().
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: typeof defaultNS;
    resources: Resources;
  }
}
