// Prints the gzip size of the JS a first visit loads before any lazy route: the entry
// chunk of index.html plus its static imports (recursively; dynamic imports are lazy).
// Usage: node scripts/bundle-size.mjs [budget in kB, default 170]; exits 1 over budget.
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url);
const budgetKb = Number(process.argv[2] ?? 170);
if (!Number.isFinite(budgetKb) || budgetKb <= 0) {
  console.error(`budget must be a positive number of kB, got ${process.argv[2]}`);
  process.exit(2);
}

const manifest = JSON.parse(await readFile(new URL(".vite/manifest.json", dist), "utf8"));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && manifest[key].src === "index.html");
if (!entryKey) {
  console.error("dist/.vite/manifest.json has no entry for index.html: run `npm run build` first");
  process.exit(2);
}

/** The manifest keys of a chunk and everything it imports statically. */
function staticClosure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) staticClosure(imported, seen);
  return seen;
}

let totalBytes = 0;
for (const key of staticClosure(entryKey)) {
  const file = manifest[key].file;
  const gzipped = gzipSync(await readFile(new URL(file, dist))).length;
  console.log(`  ${file}  ${(gzipped / 1000).toFixed(1)} kB`);
  totalBytes += gzipped;
}

const totalKb = totalBytes / 1000;
console.log(`initial JS (gzip): ${totalKb.toFixed(1)} kB`);
if (totalKb > budgetKb) {
  console.error(`over the budget of ${budgetKb} kB`);
  process.exit(1);
}
