import { afterAll, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The registry imports every adapter's ./descriptor; a descriptor must load neither its driver nor its adapter.
// Checked on the built runtime (as the CLI and server load it) with a module hook that logs every file loaded.
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-registry-lazy-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The third-party dependencies of every store adapter package (drivers, SDKs, native bindings). */
function adapterDrivers(): string[] {
  const drivers = new Set<string>();
  for (const dir of readdirSync(join(root, "packages")).filter((d) => d.startsWith("store-adapters-"))) {
    let pkg: { dependencies?: Record<string, string> };
    try {
      pkg = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
    } catch {
      continue;
    }
    for (const name of Object.keys(pkg.dependencies ?? {})) if (!name.startsWith("@hierdoc/core") && name !== "zod") drivers.add(name);
  }
  return [...drivers];
}

describe("the store registry loads no driver", () => {
  it("importing @hierdoc/runtime and reading every descriptor loads no adapter module and no store SDK", () => {
    const log = join(tmp, "modules.log");
    const hooks = join(tmp, "hooks.mjs");
    const register = join(tmp, "register.mjs");
    writeFileSync(log, "");
    writeFileSync(hooks, `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) {\n  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(log)}, url + "\\n");\n  return next(url, context);\n}\n`);
    writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)});\n`);
    const script = `const r = await import("@hierdoc/runtime"); console.log(r.STORE_DESCRIPTORS.map((d) => d.providers[0] + ":" + d.keys.length).join(","));`;
    const out = execFileSync(process.execPath, ["--import", register, "--input-type=module", "-e", script], { cwd: root, env: { ...process.env, NODE_OPTIONS: "" }, encoding: "utf8" });
    expect(out.trim().split(",").length).toBeGreaterThanOrEqual(10);
    const modules = readFileSync(log, "utf8").split("\n").filter(Boolean);
    expect(modules.some((m) => m.includes("/descriptor/index.js"))).toBe(true);
    const drivers = adapterDrivers();
    expect(drivers).toEqual(expect.arrayContaining(["mongodb", "pg", "chromadb", "@qdrant/js-client-rest"]));
    const loadedDrivers = modules.filter((m) => drivers.some((d) => m.includes(`/node_modules/${d}/`) || (d.startsWith("@hierdoc/") && m.includes(`/packages/${d.slice(9)}/`))));
    const loadedAdapters = modules.filter((m) => /\/packages\/store-adapters-[^/]+\/dist\/(?!descriptor\/)/.test(m));
    expect({ loadedDrivers, loadedAdapters }).toEqual({ loadedDrivers: [], loadedAdapters: [] });
  }, 60_000);
});
