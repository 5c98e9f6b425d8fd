import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";
import { azureCosmosStore } from "@hierdoc/store-adapters-azure-cosmos/descriptor";

const context = { indexDir: "/tmp/unused", env: () => undefined };

describe("azure-cosmos-nosql descriptor", () => {
  it("names the provider and its alias, documents every key, marks the key secret", () => {
    expect(azureCosmosStore.providers).toEqual(["azure-cosmos-nosql", "azure-cosmos"]);
    expect(azureCosmosStore.keys.map((k) => k.key)).toEqual(["endpoint", "key", "database", "container", "vector_index", "language", "full_text", "timeout_seconds"]);
    expect(azureCosmosStore.keys.filter((k) => k.required).map((k) => k.key)).toEqual(["endpoint", "key"]);
    expect(azureCosmosStore.keys.find((k) => k.key === "key")?.secret).toBe(true);
    expect(azureCosmosStore.keys.every((k) => k.description.length > 10)).toBe(true);
    expect(azureCosmosStore).toMatchObject({ testedWith: "wire", liveTestEnv: "HIERDOC_COSMOS_ENDPOINT" });
  });

  it("validates strictly: the example passes, a missing endpoint and an unknown key are named", () => {
    expect(azureCosmosStore.schema.safeParse(azureCosmosStore.example).success).toBe(true);
    const missing = azureCosmosStore.schema.safeParse({ provider: "azure-cosmos", key: "k" });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual(["endpoint: required for azure-cosmos-nosql"]);
    const unknown = azureCosmosStore.schema.safeParse({ ...azureCosmosStore.example, url: "https://x" });
    expect(unknown.error?.issues[0]?.message).toMatch(/url/);
    expect(azureCosmosStore.schema.safeParse({ ...azureCosmosStore.example, vector_index: "hnsw" }).success).toBe(false);
  });

  it("creates a closed store whose capabilities match the descriptor's, and full_text: false turns off full text and native hybrid", async () => {
    const config = azureCosmosStore.schema.parse({ ...azureCosmosStore.example, key: "a2V5" });
    const store = await azureCosmosStore.create(config, context);
    expect(store.id).toBe("azure-cosmos-nosql");
    expect({ ...store.capabilities }).toEqual(azureCosmosStore.capabilities);
    const plain = await azureCosmosStore.create(azureCosmosStore.schema.parse({ ...config, full_text: false }), context);
    expect(plain.capabilities).toMatchObject({ fullText: false, nativeHybrid: false, vectorSearch: true });
    await store.close();
    await plain.close();
  });

  it("does not import the SDK (the registry loads every descriptor at start-up)", () => {
    const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../src/descriptor/index.ts"), "utf8");
    expect(source).not.toMatch(/from "@azure\/cosmos"/);
    expect(source).toMatch(/await import\("\.\.\/cosmos-store\.js"\)/);
  });
});
