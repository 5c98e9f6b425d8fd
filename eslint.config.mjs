import nx from "@nx/eslint-plugin";
import tseslint from "typescript-eslint";

export default [
  { ignores: ["**/dist/**", "**/node_modules/**", "**/coverage/**", "**/.nx/**", "**/*.cjs"] },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.mjs", "**/*.js"],
    plugins: { "@nx": nx },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@nx/enforce-module-boundaries": [
        "error",
        {
          enforceBuildableLibDependency: true,
          allowCircularSelfDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: "type:core", onlyDependOnLibsWithTags: [] },
            { sourceTag: "type:domain", onlyDependOnLibsWithTags: ["type:core"] },
            { sourceTag: "type:driver", onlyDependOnLibsWithTags: ["type:core"] },
            { sourceTag: "type:adapter", onlyDependOnLibsWithTags: ["type:core", "type:driver"] },
            { sourceTag: "type:tool", onlyDependOnLibsWithTags: ["type:core", "type:domain"] },
            { sourceTag: "type:runtime", onlyDependOnLibsWithTags: ["type:core", "type:domain", "type:adapter", "type:tool"] },
            // Framework adapters (LangChain, LlamaIndex, AI SDK) and the agent tool definitions they share: wrap a tool, never a concrete store.
            { sourceTag: "type:integration", onlyDependOnLibsWithTags: ["type:core", "type:domain", "type:tool", "type:integration"] },
            { sourceTag: "type:app", onlyDependOnLibsWithTags: ["type:core", "type:domain", "type:adapter", "type:tool", "type:runtime", "type:integration", "type:app"] },
            { sourceTag: "type:bench", onlyDependOnLibsWithTags: ["type:core", "type:domain", "type:adapter", "type:tool", "type:runtime", "type:integration", "type:app"] },
          ],
        },
      ],
    },
  },
  {
    // Tests may use any workspace package (e.g. the tool's tests run it over a real memory store).
    files: ["**/test/**/*.ts"],
    rules: {
      "@nx/enforce-module-boundaries": ["error", { allowCircularSelfDependency: true, depConstraints: [{ sourceTag: "*", onlyDependOnLibsWithTags: ["*"] }] }],
    },
  },
];
