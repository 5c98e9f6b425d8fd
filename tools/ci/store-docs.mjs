// Writes the generated store documentation from the store descriptors (build @hierdoc/runtime first):
//   node tools/ci/store-docs.mjs          # README.md "Store adapters" table + each adapter README's keys block
//   node tools/ci/store-docs.mjs --check  # exit 1 when a README differs from what the descriptors say
// Blocks sit between markers: <!-- store-table --> … <!-- /store-table --> in README.md and
// <!-- store-keys:PROVIDER --> … <!-- /store-keys:PROVIDER --> in packages/store-adapters-*/README.md.
import { readFileSync, readdirSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { STORE_DESCRIPTORS, replaceGeneratedBlock, storeKeysMarkdown, storeTableMarkdown } from "@hierdoc/runtime";

const root = new URL("../..", import.meta.url).pathname;
const check = process.argv.includes("--check");
const files = [join(root, "README.md")];
for (const dir of readdirSync(join(root, "packages")).filter((d) => d.startsWith("store-adapters-"))) {
  const readme = join(root, "packages", dir, "README.md");
  if (existsSync(readme)) files.push(readme);
}
let stale = 0;
for (const file of files) {
  const before = readFileSync(file, "utf8");
  let after = replaceGeneratedBlock(before, "store-table", storeTableMarkdown());
  for (const d of STORE_DESCRIPTORS) after = replaceGeneratedBlock(after, `store-keys:${d.providers[0]}`, storeKeysMarkdown(d));
  if (after === before) continue;
  stale++;
  if (check) console.error(`${file}: generated store docs are out of date (run node tools/ci/store-docs.mjs)`);
  else writeFileSync(file, after);
}
console.log(`${files.length} READMEs checked, ${stale} ${check ? "out of date" : "rewritten"}`);
process.exit(check && stale > 0 ? 1 : 0);
