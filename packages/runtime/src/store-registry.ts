import { configProblems, HierdocError, type StoreDescriptor, type ToolConfig } from "@hierdoc/core";
import { azureCosmosStore } from "@hierdoc/store-adapters-azure-cosmos/descriptor";
import { azureSearchStore } from "@hierdoc/store-adapters-azure-search/descriptor";
import { chromaStore } from "@hierdoc/store-adapters-chroma/descriptor";
import { faissStore } from "@hierdoc/store-adapters-faiss/descriptor";
import { lancedbStore } from "@hierdoc/store-adapters-lancedb/descriptor";
import { memoryStore } from "@hierdoc/store-adapters-memory/descriptor";
import { mongodbStore } from "@hierdoc/store-adapters-mongodb/descriptor";
import { opensearchStore } from "@hierdoc/store-adapters-opensearch/descriptor";
import { pineconeStore } from "@hierdoc/store-adapters-pinecone/descriptor";
import { postgresStore } from "@hierdoc/store-adapters-postgres/descriptor";
import { qdrantStore } from "@hierdoc/store-adapters-qdrant/descriptor";
import { sqlServerStore } from "@hierdoc/store-adapters-sql-server/descriptor";
import { weaviateStore } from "@hierdoc/store-adapters-weaviate/descriptor";

/**
 * Every store this runtime can open, in the order of the README's store table. A new adapter is one line here
 * (and a dependency in package.json): its package's `./descriptor` entry says the rest.
 */
export const STORE_DESCRIPTORS: readonly StoreDescriptor[] = [
  memoryStore,
  postgresStore,
  chromaStore,
  lancedbStore,
  faissStore,
  qdrantStore,
  weaviateStore,
  pineconeStore,
  azureSearchStore,
  mongodbStore,
  opensearchStore,
  azureCosmosStore,
  sqlServerStore,
] as unknown as readonly StoreDescriptor[];

/** How the index manifest stores a secret value (see the tool's `redactConfig`). */
const REDACTED = "***";

/** Canonical store provider names (`vector_store.provider`), aliases excluded. */
export const STORE_PROVIDERS: readonly string[] = STORE_DESCRIPTORS.map((d) => d.providers[0]);

/** The descriptor a provider name (canonical or alias) selects, or `undefined`. */
export function findStore(provider: string): StoreDescriptor | undefined {
  return STORE_DESCRIPTORS.find((d) => d.providers.includes(provider));
}

/** One problem of a `vector_store` block, its path relative to the tool entry (`["vector_store", "url"]`). */
export interface StoreConfigProblem {
  path: PropertyKey[];
  message: string;
}

/**
 * Checks a tool's `vector_store` block against its store's schema: an unknown provider (listing the available
 * ones), a missing required key (`vector_store.url: required for qdrant`), an unknown key or a bad value.
 * Returns no problems for a valid block. `loadToolConfig` turns them into `file:line: tools[0].vector_store.url: …`.
 */
export function storeConfigProblems(config: Pick<ToolConfig, "vector_store">): StoreConfigProblem[] {
  const block = config.vector_store as Record<string, unknown>;
  const provider = String(block.provider);
  const descriptor = findStore(provider);
  if (descriptor === undefined) {
    return [{ path: ["vector_store", "provider"], message: `unknown store "${provider}" (available: ${STORE_DESCRIPTORS.map((d) => d.providers.join(" | ")).join(", ")})` }];
  }
  const redacted = descriptor.keys.filter((k) => k.secret && block[k.key] === REDACTED);
  if (redacted.length > 0) {
    // A config read back from an index manifest, where secrets are stored as "***".
    return redacted.map((k) => ({ path: ["vector_store", k.key], message: "the index keeps no secrets: pass the config again (--config FILE --tool NAME) with it as ${ENV_VAR}" }));
  }
  const parsed = descriptor.schema.safeParse(withoutUndefined(block));
  if (parsed.success) return [];
  const messages = configProblems(parsed.error);
  return parsed.error.issues.map((issue, i) => ({ path: ["vector_store", ...issue.path], message: messages[i].message }));
}

/**
 * The descriptor and validated (defaults applied) config of a tool's `vector_store` block.
 * @throws HierdocError E_CONFIG listing every problem with its `vector_store.*` path.
 */
export function resolveStore(config: Pick<ToolConfig, "vector_store">): { descriptor: StoreDescriptor; storeConfig: { provider: string } & Record<string, unknown> } {
  const problems = storeConfigProblems(config);
  if (problems.length > 0) {
    const lines = problems.map((p) => `${p.path.map(String).join(".")}: ${p.message}`);
    throw new HierdocError("E_CONFIG", lines.length === 1 ? lines[0] : `invalid vector_store (${lines.length} problems):\n  ${lines.join("\n  ")}`, {
      details: { path: problems[0].path.map(String).join("."), problems: lines },
    });
  }
  const block = withoutUndefined(config.vector_store as Record<string, unknown>);
  const descriptor = findStore(String(block.provider))!;
  return { descriptor, storeConfig: descriptor.schema.parse(block) };
}

/** The core schema's passthrough may leave `path: undefined`; a strict store schema should not see it. */
function withoutUndefined(block: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(block).filter(([, v]) => v !== undefined));
}

/**
 * A copy of a tool's `vector_store` block with every key its store declares secret replaced by `***` (how the
 * index manifest keeps secrets), for what is written to disk. Unknown providers are returned unchanged.
 */
export function withoutStoreSecrets(config: Pick<ToolConfig, "vector_store">): ToolConfig["vector_store"] {
  const block = config.vector_store as Record<string, unknown>;
  const secret = new Set(findStore(String(block.provider))?.keys.filter((k) => k.secret).map((k) => k.key) ?? []);
  return Object.fromEntries(Object.entries(block).map(([k, v]) => [k, secret.has(k) && v != null ? REDACTED : v])) as ToolConfig["vector_store"];
}
