// Shared Jest settings. Each package's jest.config.cjs calls project(__dirname).
// Tests import workspace packages by name; the mapper points them at the TypeScript sources,
// so `npm test` needs no build for unit tests (CLI end-to-end tests use the built binary).
const path = require("node:path");
const fs = require("node:fs");

const root = __dirname;
const packagesDir = path.join(root, "packages");

function workspaceMapper() {
  const map = {};
  for (const name of fs.readdirSync(packagesDir)) {
    const src = path.join(packagesDir, name, "src");
    if (!fs.existsSync(src)) continue;
    map[`^@hierdoc/${name}$`] = path.join(src, "index.ts");
    map[`^@hierdoc/${name}/(.*)$`] = path.join(src, "$1", "index.ts");
  }
  return map;
}

const swc = [
  "@swc/jest",
  {
    jsc: { parser: { syntax: "typescript" }, target: "es2022" },
    module: { type: "es6" },
    sourceMaps: "inline",
  },
];

function project(dir) {
  const name = path.basename(dir);
  return {
    displayName: name,
    rootDir: dir,
    testEnvironment: "node",
    extensionsToTreatAsEsm: [".ts"],
    transform: { "^.+\\.ts$": swc },
    moduleNameMapper: {
      ...workspaceMapper(),
      "^(\\.{1,2}/.*)\\.js$": "$1",
    },
    testMatch: ["<rootDir>/test/**/*.test.ts", "<rootDir>/src/**/*.test.ts"],
    testTimeout: 30000,
  };
}

module.exports = { project };
