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
