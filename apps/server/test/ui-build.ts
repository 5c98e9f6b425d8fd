import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { PACKAGE_DIR } from "./helpers.js";

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * Builds the search page (`ui/` → `dist/ui`) when it is missing or older than its sources, so the page
 * tests run the current page. `npm test` builds everything first; this covers running Jest on this folder alone.
 */
export function ensureUiBuilt(): void {
  const ui = join(PACKAGE_DIR, "ui");
  const built = join(PACKAGE_DIR, "dist/ui/index.html");
  if (existsSync(built) && statSync(built).mtimeMs >= newest(ui)) return;
  const tsc = resolve(PACKAGE_DIR, "../../node_modules/typescript/bin/tsc");
  for (const args of [[tsc, "-p", join(ui, "tsconfig.json")], [join(ui, "copy-static.mjs")]]) {
    const res = spawnSync(process.execPath, args, { encoding: "utf8" });
    if (res.status !== 0) throw new Error(`building the search page failed:\n${res.stdout}${res.stderr}`);
  }
}
