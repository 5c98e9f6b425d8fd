import type { StoreDescriptor } from "@hierdoc/core";
import { STORE_DESCRIPTORS } from "./store-registry.js";

const yes = (b: boolean) => (b ? "✓" : "–");

/**
 * The root README's store table, one row per registered store, from the descriptors: provider names, what it is,
 * its capabilities, the search route they select (`native_hybrid` or app-level `fallback`), how it is tested here
 * and the live-test variable. `tools/ci/store-docs.mjs` writes it; a runtime test fails when the README drifts.
 */
export function storeTableMarkdown(descriptors: readonly StoreDescriptor[] = STORE_DESCRIPTORS): string {
  const head = [
    "| provider (aliases) | what | vector | native hybrid | full text | delete by filter | persistent | hybrid search route | tested here against | live test env var |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  const rows = descriptors.map((d) => {
    const c = d.capabilities;
    const [name, ...aliases] = d.providers;
    return [
      `\`${name}\`${aliases.length > 0 ? ` (${aliases.map((a) => `\`${a}\``).join(", ")})` : ""}`,
      d.description,
      yes(c.vectorSearch),
      yes(c.nativeHybrid),
      yes(c.fullText),
      yes(c.deleteByFilter),
      yes(c.persistent),
      c.nativeHybrid ? "`native_hybrid`" : "`fallback`",
      { real: "the real engine", wire: "a local wire-format server", "driver-double": "an in-process stand-in for the driver (no server here; live test only)" }[d.testedWith],
      d.liveTestEnv ? `\`${d.liveTestEnv}\`` : "–",
    ];
  });
  return [...head, ...rows.map((cells) => `| ${cells.join(" | ")} |`)].join("\n");
}

/** An adapter README's "Configure" block: the example `vector_store` block and the table of its YAML keys. */
export function storeKeysMarkdown(d: StoreDescriptor): string {
  const flow = Object.entries(d.example)
    .map(([k, v]) => `${k}: ${typeof v === "string" && /[${}:#]/.test(v) ? JSON.stringify(v) : String(v)}`)
    .join(", ");
  const rows = d.keys.map((k) => `| \`${k.key}\` | ${k.required ? "yes" : "no"} | ${k.description.replace(/\|/g, "\\|")}${k.secret ? " (secret)" : ""} |`);
  return [
    "```yaml",
    `    vector_store: { ${flow} }`,
    "```",
    "",
    `\`provider\`: ${d.providers.map((p) => `\`${p}\``).join(" or ")}. Unknown keys are errors; secrets come from \`\${ENV_VAR}\` references.`,
    "",
    "| key | required | meaning |",
    "|---|---|---|",
    ...rows,
  ].join("\n");
}

/** Marker pair around a generated block: `<!-- NAME -->` … `<!-- /NAME -->`. */
function markers(name: string): [string, string] {
  return [`<!-- ${name} -->`, `<!-- /${name} -->`];
}

/** The generated block between `<!-- NAME -->` and `<!-- /NAME -->` in `text`, or `undefined` without markers. */
export function generatedBlock(text: string, name: string): string | undefined {
  const [open, close] = markers(name);
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  return start < 0 || end < 0 ? undefined : text.slice(start + open.length, end).trim();
}

/** `text` with the block between the `NAME` markers replaced by `content` (unchanged without markers). */
export function replaceGeneratedBlock(text: string, name: string, content: string): string {
  const [open, close] = markers(name);
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  if (start < 0 || end < 0) return text;
  return `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`;
}
