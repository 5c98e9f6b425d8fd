#!/usr/bin/env node
// The README's test command: build every package (CLI end-to-end tests run the built binary),
// lint, run every Jest project once, and close with one line `N passed, N failed, N skipped`.
// Extra arguments are passed to Jest (e.g. a path filter).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const env = { ...process.env, NX_NO_CLOUD: "true", NX_DAEMON: "false", NX_TUI: "false" };
const args = process.argv.slice(2);
const skipBuild = args.includes("--no-build");
const jestArgs = args.filter((a) => a !== "--no-build");

function run(cmd, cmdArgs, extraEnv = {}) {
  const res = spawnSync(cmd, cmdArgs, { stdio: "inherit", env: { ...env, ...extraEnv } });
  return res.status ?? 1;
}

if (!skipBuild) {
  if (run("npx", ["nx", "run-many", "-t", "build", "--output-style=static"]) !== 0) {
    console.error("build failed");
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

if (!skipBuild) {
  // Lint (module boundaries between core, domain, adapter, tool, runtime and app packages) is part of the test run.
  if (run("npm", ["run", "lint", "--silent"]) !== 0) {
    console.error("lint failed");
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

const dir = mkdtempSync(join(tmpdir(), "hierdoc-jest-"));
const out = join(dir, "results.json");
const status = run("npx", ["jest", "--json", `--outputFile=${out}`, "--forceExit", ...jestArgs], {
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --experimental-vm-modules --no-warnings=ExperimentalWarning`.trim(),
});
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const r = JSON.parse(readFileSync(out, "utf8"));
  passed = r.numPassedTests;
  failed = r.numFailedTests + r.numRuntimeErrorTestSuites;
  skipped = r.numPendingTests + r.numTodoTests;
} catch {
  failed = Math.max(failed, 1);
}
rmSync(dir, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status !== 0 || failed > 0 ? 1 : 0);
