import { describe, expect, it } from "vitest";

import { LOCALES } from "./language";
import { namespaces, resources } from "./resources";

// Every namespace's file in every language: the bundled ones and those loaded on demand.
const files = import.meta.glob<{ default: object }>("../locales/*/*.json", { eager: true });
const tree = (lng: string, ns: string): object => files[`../locales/${lng}/${ns}.json`]?.default ?? {};

/** Every leaf of a translation tree as [dotted key, value], e.g. ["notFound.title", "..."]. */
function leaves(tree: object, prefix = ""): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]: [string, unknown]) =>
    typeof value === "object" && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

it("bundles the shell's namespaces and has a file for every other one", () => {
  expect(Object.keys(files)).toHaveLength(LOCALES.length * namespaces.length);
  expect(tree("es", "shell")).toBe(resources.es.shell);
});

// The languages are contracts/locales.py's (src/api/locales.gen.ts): each needs its folder.
it.each(LOCALES)("%s, a language of the list, has every namespace's file", (lng) => {
  expect(namespaces.filter((ns) => !files[`../locales/${lng}/${ns}.json`])).toEqual([]);
  expect(resources[lng].common).toBe(tree(lng, "common"));
});

it("has translations only for the languages of the list", () => {
  const folders = new Set(Object.keys(files).map((path) => path.split("/")[2]));
  expect([...folders].sort()).toEqual([...LOCALES].sort());
});

it.each(LOCALES)("names every language of the list in %s", (lng) => {
  const names = (tree(lng, "common") as { language?: Record<string, string> }).language ?? {};
  expect(LOCALES.filter((other) => !names[other])).toEqual([]);
});

describe.each(namespaces)("namespace %s", (ns) => {
  const allKeys = new Set(LOCALES.flatMap((lng) => leaves(tree(lng, ns)).map(([key]) => key)));

  it.each(LOCALES)("%s has every key that any language has", (lng) => {
    const keys = new Set(leaves(tree(lng, ns)).map(([key]) => key));
    expect([...allKeys].filter((key) => !keys.has(key))).toEqual([]);
  });

  it.each(LOCALES)("%s has a non-empty text for every key", (lng) => {
    const blank = leaves(tree(lng, ns)).filter(([, text]) => typeof text !== "string" || text.trim() === "");
    expect(blank.map(([key]) => key)).toEqual([]);
  });
});
