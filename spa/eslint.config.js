import { readdirSync } from "node:fs";

import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Code every layer may use; it imports only itself (and npm packages). */
const SHARED = ["api", "components", "forms", "i18n", "lib", "locales", "styles", "utils"].map((dir) => `./src/${dir}`);

const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

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

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "src/api/*.gen.ts"] },
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
      "import-x/no-restricted-paths": ["error", { zones: layerZones }],
      "import-x/no-cycle": "error",
      // Type-only imports stay type-only, so the build drops them (tsconfig has verbatimModuleSyntax).
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // Features add their slices to the root reducer's type by declaration merging (RTK's lazy slices).
      "@typescript-eslint/no-empty-object-type": ["error", { allowWithName: "^LazyLoadedSlices$" }],
    },
  },
  {
    files: ["*.js", "scripts/**/*.mjs"],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
