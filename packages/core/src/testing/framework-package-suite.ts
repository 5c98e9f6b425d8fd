import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { jestApi } from "./jest-api.js";

/** A framework-adapter package checked by {@link describeFrameworkPackage}. */
export interface FrameworkPackage {
  /** The package folder: holds package.json, README.md and test/readme-example.ts; the root README is two levels up. */
  packageDir: string;
  /** The framework package it must take only as an exact peer (`"@langchain/core"`, `"ai"`). */
  peer: string;
}

/**
 * The ```ts block right after the `<!-- packages/NAME/test/readme-example.ts -->` marker of a README,
 * trimmed; `undefined` when the marker or its block is missing.
 */
export function readmeExampleBlock(readme: string, examplePath: string): string | undefined {
  const marker = examplePath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`<!-- ${marker} -->\\s*\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1].trim();
}

/**
 * Registers (from a Jest test file) the checks every framework-adapter package shares: the framework is an
 * exact peer (same version as the dev dependency, not a dependency; no other non-`@hierdoc/` dependency but
 * zod), and `test/readme-example.ts` is the code block after its marker in the package README and the root
 * README. The test file still runs the example itself.
 * @throws HierdocError E_INTERNAL outside a Jest test file.
 */
export function describeFrameworkPackage({ packageDir, peer }: FrameworkPackage): void {
  const { describe, it, expect } = jestApi();
  describe("the package", () => {
    it(`depends on ${peer} only as an exact peer (installed at the same version for the tests)`, () => {
      const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
      expect(Object.keys(pkg.peerDependencies)).toEqual([peer]);
      expect(pkg.peerDependencies[peer]).toMatch(/^\d+\.\d+\.\d+$/);
      expect(pkg.devDependencies[peer]).toBe(pkg.peerDependencies[peer]);
      expect(Object.keys(pkg.dependencies)).not.toContain(peer);
      expect(Object.keys(pkg.dependencies).filter((d) => !d.startsWith("@hierdoc/") && d !== "zod")).toEqual([]);
    });
  });

  describe("the README example", () => {
    it("is the code this test runs, in the package README and the root README's 'Use from your framework'", () => {
      const examplePath = `packages/${basename(packageDir)}/test/readme-example.ts`;
      const example = readFileSync(join(packageDir, "test/readme-example.ts"), "utf8").trim();
      expect(readmeExampleBlock(readFileSync(join(packageDir, "README.md"), "utf8"), examplePath)).toBe(example);
      expect(readmeExampleBlock(readFileSync(join(packageDir, "../../README.md"), "utf8"), examplePath)).toBe(example);
    });
  });
}
