import "i18next";

import type { defaultNS, Resources } from "./resources";

// The console's own program (src/console/tsconfig.json) types its keys apart from the player site's.
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: typeof defaultNS;
    resources: Resources;
  }
}
