import { readdirSync } from "node:fs";

import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Code every layer may use; it imports only itself (and npm packages). */
const SHARED = ["api", "components", "forms", "i18n", "lib", "locales", "styles", "utils"].map((dir) => `./src/${dir}`);

const folders = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const features = folders("./src/features");

/**
 * Imports flow shared -> features -> app, never back, and no feature imports another
 * (bulletproof-react's zones). A screen that composes several features lives in app/.
 * src/test (render helpers, the BFF stub) and main.tsx sit outside the layers.
 */
const layerZones = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: "./src/features",
    except: [`./${feature}`],
    message: "A feature imports no other feature: compose them in src/app, or move the shared piece to src/lib, src/api or src/components.",
  })),
  {
    target: "./src/features",
    from: "./src/app",
    message: "Features never import app/: move what they share to src/lib or src/api.",
  },
  {
    target: SHARED,
    from: ["./src/features", "./src/app"],
    message: "Shared code imports no feature and nothing of app/: pass the data in as props, or move the piece down.",
  },
];

/**
 * The operators' console (src/console) is an app of its own with the same three layers. Nothing of
 * the player site imports it; it takes from the player site only what carries no player i18n or
 * state: the XSRF cookie helper, the languages (generated from contracts/), the Dialog, the TextField and
 * src/utils.
 */
const CONSOLE_SHARED = ["api", "components", "i18n", "lib", "locales", "styles"].map((dir) => `./src/console/${dir}`);
const consoleFeatures = folders("./src/console/features");
const consoleZones = [
  {
    target: ["./src/api", "./src/app", "./src/components", "./src/features", "./src/forms", "./src/i18n", "./src/lib",
             "./src/locales", "./src/styles", "./src/test", "./src/utils", "./src/main.tsx"],
    from: "./src/console",
    message: "The player site never imports the operators' console: it is built and served apart.",
  },
  {
    target: "./src/console",
    from: ["./src/app", "./src/features", "./src/forms", "./src/i18n", "./src/lib", "./src/locales", "./src/styles",
           "./src/test", "./src/main.tsx"],
    message: "The console takes only src/api/xsrf.ts, src/components/Dialog.tsx, src/components/TextField.tsx and src/utils from the player site.",
  },
  {
    target: "./src/console",
    from: "./src/api",
    except: ["./xsrf.ts", "./locales.gen.ts"],
    message: "The console takes only src/api/xsrf.ts, src/api/locales.gen.ts, src/components/Dialog.tsx, src/components/TextField.tsx and src/utils from the player site.",
  },
  {
    target: "./src/console",
    from: "./src/components",
    except: ["./Dialog.tsx", "./TextField.tsx"],
    message: "The console takes only src/api/xsrf.ts, src/components/Dialog.tsx, src/components/TextField.tsx and src/utils from the player site.",
  },
  ...consoleFeatures.map((feature) => ({
    target: `./src/console/features/${feature}`,
    from: "./src/console/features",
    except: [`./${feature}`],
    message: "A console feature imports no other feature: compose them in src/console/app.",
  })),
  {
    target: "./src/console/features",
    from: "./src/console/app",
    message: "Console features never import its app/: move what they share to src/console/lib or components.",
  },
  {
    target: CONSOLE_SHARED,
    from: ["./src/console/features", "./src/console/app"],
    message: "The console's shared code imports no feature and nothing of its app/.",
  },
];

/**
 * Endpoint paths come from the route catalogue by name (`pathOf("balance")`, src/api/routes.ts,
 * generated from contracts/catalogue.py), so a typo or a removed route is a type error. A written
 * "/api/...", "/capi/...", "/sbapi/..." or "/rest/..." is refused; tests may spell them: they
 * stub and assert what goes over the wire, which also checks the generated paths.
 */
const PLATFORM_PATH = "/^\\/(api|capi|sbapi|rest)\\//";
const PLATFORM_PATH_MESSAGE =
  'Call a catalogue route by its name: pathOf("<route>") from src/api/routes.ts, not a written platform path.';
const noWrittenPlatformPaths = [
  "error",
  { selector: `Literal[value=${PLATFORM_PATH}]`, message: PLATFORM_PATH_MESSAGE },
  { selector: `TemplateElement[value.raw=${PLATFORM_PATH}]`, message: PLATFORM_PATH_MESSAGE },
];

export default tseslint.config(
  { ignores: ["dist/", "dist-console/", "node_modules/", "src/api/*.gen.ts", "src/console/api/*.gen.ts"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked, reactHooks.configs.flat.recommended],
    languageOptions: {
      globals: globals.browser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".json"] })],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones: [...layerZones, ...consoleZones] }],
      "import-x/no-cycle": "error",
      // Type-only imports stay type-only, so the build drops them (tsconfig has verbatimModuleSyntax).
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // Features add their slices to the root reducer's type by declaration merging (RTK's lazy slices).
      "@typescript-eslint/no-empty-object-type": ["error", { allowWithName: "^LazyLoadedSlices$" }],
      "no-restricted-syntax": noWrittenPlatformPaths,
    },
  },
  {
    files: ["**/*.test.{ts,tsx}", "src/test/**", "src/console/test/**"],
    rules: { "no-restricted-syntax": "off" },
  },
  {
    files: ["*.js", "scripts/**/*.mjs"],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
