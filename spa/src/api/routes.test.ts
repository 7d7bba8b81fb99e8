import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import ts from "typescript";
import { describe, expect, it } from "vitest";

import { pathOf, routes } from "./routes";

const API = dirname(fileURLToPath(import.meta.url));
const SPA = resolve(API, "../..");
const GENERATED = join(API, "routes.gen.ts");

describe("pathOf", () => {
  it("gives a route's public path from its catalogue name", () => {
    expect(pathOf("balance")).toBe("/api/cashier/balance");
    expect(pathOf("homeBanners")).toBe("/capi/home-banners");
    // The session segment is the gateway's to add: the browser's path has none.
    expect(pathOf("ezugiLaunch")).toBe("/rest/ezugi/session");
  });

  it("fills each parameter as one encoded segment", () => {
    expect(pathOf("pragmaticLaunch", { gameId: "vs20/olympgate" })).toBe("/rest/pp/ppToken/vs20%2Folympgate");
    expect(pathOf("mancalaLaunch", { Id: 112 })).toBe("/rest/mancala/getToken/112");
    expect(pathOf("media", { file: "live-ezugi.svg" })).toBe("/capi/uploads/live-ezugi.svg");
  });

  it("refuses, as a type error, a name the catalogue lacks or a missing parameter", () => {
    // @ts-expect-error: no route has this name (tsc fails if this line type-checks).
    expect(() => pathOf("noSuchRoute")).toThrow();
    // @ts-expect-error: the launch needs its gameId.
    expect(pathOf("habaneroLaunch")).toBe("/rest/habanero/session/undefined");
  });

  it("knows every route of the catalogue, each under its upstream's prefix", () => {
    for (const route of Object.values(routes)) expect(route.path).toMatch(/^\/(api|capi|sbapi|rest)\//);
  });
});

/** The parsed library and SPA files, shared by the type-checks below (parsing lib.dom.d.ts once). */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** Type-checks `files` (the SPA's own, as they are) against routes.gen.ts with `removed` left out. */
function typeErrorsWithout(removed: string, files: string[]): string[] {
  const options: ts.CompilerOptions = {
    ...ts.convertCompilerOptionsFromJson(
      (ts.readConfigFile(join(SPA, "tsconfig.json"), (path) => ts.sys.readFile(path)).config as {
        compilerOptions: object;
      }).compilerOptions,
      SPA,
    ).options,
    noEmit: true,
    noUnusedLocals: false,
    noUnusedParameters: false,
  };
  const generated = readFileSync(GENERATED, "utf8");
  const entry = new RegExp(`\\n  "${removed}": \\{[\\s\\S]*?\\n  \\},?`);
  expect(generated).toMatch(entry);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (path) => (resolve(path) === GENERATED ? generated.replace(entry, "") : readFile(path));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (path, language, onError) => {
    if (resolve(path) === GENERATED) return ts.createSourceFile(path, host.readFile(path)!, language);
    if (!parsed.has(path)) parsed.set(path, getSourceFile(path, language, onError));
    return parsed.get(path);
  };
  const program = ts.createProgram(files, options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && files.includes(resolve(d.file.fileName)))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("a route removed from the catalogue", () => {
  // The game launches: plain TypeScript (no React or RTK types to load), both kinds of route.
  const callers = [join(SPA, "src/features/games/launch.ts")];

  it("breaks the type-check of the SPA code that calls it, and only that", { timeout: 60_000 }, () => {
    expect(typeErrorsWithout("pragmaticLaunch", callers)).toEqual([expect.stringContaining('"pragmaticLaunch"')]);
    expect(typeErrorsWithout("vivoLaunch", callers)).toEqual([expect.stringContaining('"vivoLaunch"')]);
    // A route these files do not call: they type-check as they are.
    expect(typeErrorsWithout("balance", callers)).toEqual([]);
  });
});
