import { describe, expect, it } from "vitest";

import { LOCALES, namespaces, resources } from "./resources";

/** Every leaf of a translation tree as [dotted key, value]. */
function leaves(tree: object, prefix = ""): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]: [string, unknown]) =>
    typeof value === "object" && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

const files = import.meta.glob<{ default: object }>("../locales/*/*.json", { eager: true });

it("bundles every namespace file of every language", () => {
  expect(Object.keys(files)).toHaveLength(LOCALES.length * namespaces.length);
});

describe.each(namespaces)("the console's namespace %s", (ns) => {
  const keysOf = (lng: (typeof LOCALES)[number]) => leaves(resources[lng][ns]).map(([key]) => key);
  const allKeys = new Set(LOCALES.flatMap(keysOf));

  it.each(LOCALES)("%s has every key that any language has", (lng) => {
    const keys = new Set(keysOf(lng));
    expect([...allKeys].filter((key) => !keys.has(key))).toEqual([]);
  });

  it.each(LOCALES)("%s has a non-empty text for every key", (lng) => {
    const blank = leaves(resources[lng][ns]).filter(([, text]) => typeof text !== "string" || text.trim() === "");
    expect(blank.map(([key]) => key)).toEqual([]);
  });
});
