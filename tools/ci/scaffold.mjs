// One-off scaffolder for a workspace package: node tools/ci/scaffold.mjs packages/NAME "description" type:TAG [dep@ver ...]
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join, basename } from "node:path";
const [dir, description, tag, ...deps] = process.argv.slice(2);
const name = dir.startsWith("apps/") ? `@hierdoc/${basename(dir)}` : `@hierdoc/${basename(dir)}`;
mkdirSync(join(dir, "src"), { recursive: true });
mkdirSync(join(dir, "test"), { recursive: true });
const dependencies = {};
for (const d of deps) { const i = d.lastIndexOf("@"); dependencies[d.slice(0, i)] = d.slice(i + 1); }
const pkg = {
  name, version: "0.1.0", description, license: "MIT", type: "module",
  main: "./dist/index.js", types: "./dist/index.d.ts",
  exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
  files: ["dist", "README.md"],
  scripts: { build: "tsc -p tsconfig.lib.json", typecheck: "tsc -p tsconfig.json --noEmit" },
  dependencies, nx: { tags: [tag] },
};
if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../tsconfig.base.json", compilerOptions: { noEmit: true, rootDir: ".", types: ["node", "jest"] }, include: ["src", "test"] }, null, 2) + "\n");
writeFileSync(join(dir, "tsconfig.lib.json"), JSON.stringify({ extends: "../../tsconfig.base.json", compilerOptions: { rootDir: "src", outDir: "dist", tsBuildInfoFile: "dist/.tsbuildinfo" }, include: ["src"], exclude: ["src/**/*.test.ts"] }, null, 2) + "\n");
writeFileSync(join(dir, "jest.config.cjs"), `module.exports = require("../../jest.preset.cjs").project(__dirname);\n`);
if (!existsSync(join(dir, "src/index.ts"))) writeFileSync(join(dir, "src/index.ts"), "export {};\n");
