import { describe, expect, it } from "vitest";

import { LOCALES } from "./language";
import { resources } from "./resources";

/** Every leaf of a translation tree as [dotted key, value], e.g. ["notFound.title", "..."]. */
function leaves(tree: object, prefix = ""): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]: [string, unknown]) =>
    typeof value === "object" && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

const namespaces = Object.keys(resources.es) as (keyof (typeof resources)["es"])[];

describe.each(namespaces)("namespace %s", (ns) => {
  const allKeys = new Set(LOCALES.flatMap((lng) => leaves(resources[lng][ns]).map(([key]) => key)));

  it.each(LOCALES)("%s has every key that any language has", (lng) => {
    const keys = new Set(leaves(resources[lng][ns]).map(([key]) => key));
    expect([...allKeys].filter((key) => !keys.has(key))).toEqual([]);
  });

  it.each(LOCALES)("%s has a non-empty text for every key", (lng) => {
    const blank = leaves(resources[lng][ns]).filter(([, text]) => typeof text !== "string" || text.trim() === "");
    expect(blank.map(([key]) => key)).toEqual([]);
  });
});
