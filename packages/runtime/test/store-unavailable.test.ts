import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HierdocError, ToolConfigSchema } from "@hierdoc/core";
import { closedPort, FIXTURE_DIMENSIONS, FIXTURE_EMBEDDER_ID } from "@hierdoc/core/testing";
import { createStore, STORE_DESCRIPTORS } from "@hierdoc/runtime";

const tmp = mkdtempSync(join(tmpdir(), "hierdoc-unavailable-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const USER = "alice";
const SECRET = "s3cr3t-pw";

/** The examples' connection-string references, as strings with credentials for a server at `port`. */
const CONNECTION_STRINGS: Record<string, (port: number) => string> = {
  "${MONGODB_URI}": (port) => `mongodb://${USER}:${SECRET}@127.0.0.1:${port}/?directConnection=true`,
  "${DATABASE_URL}": (port) => `postgres://${USER}:${SECRET}@127.0.0.1:${port}/db`,
  "${SQLSERVER_CONNECTION_STRING}": (port) => `Server=tcp:127.0.0.1,${port};Database=db;User Id=${USER};Password=${SECRET};Encrypt=false`,
};

/**
 * A store's example block pointed at a port nothing listens on: every URL becomes `http://127.0.0.1:PORT`, secrets
 * (`${…}`) become a password, and connection strings carry it (`mongodb://alice:s3cr3t-pw@127.0.0.1:PORT`), to
 * check no error repeats it. `undefined` for stores that run in the process (no service to be down).
 */
function pointedAt(example: Readonly<Record<string, unknown>>, port: number): Record<string, unknown> | undefined {
  let remote = false;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(example)) {
    if (typeof value !== "string") out[key] = value;
    else if (/^https?:\/\//.test(value)) {
      remote = true;
      out[key] = `http://127.0.0.1:${port}`;
    } else if (CONNECTION_STRINGS[value] !== undefined) {
      remote = true;
      out[key] = CONNECTION_STRINGS[value](port);
    } else out[key] = value.replace(/\$\{[A-Z_]+\}/, SECRET);
  }
  return remote ? out : undefined;
}

describe("a store whose service is down", () => {
  const remote = STORE_DESCRIPTORS.map((d) => [d.providers[0], d] as const).filter(([, d]) => pointedAt(d.example, 1) !== undefined);

  it("covers every store that talks to a service (the in-process ones have nothing to be down)", () => {
    const inProcess = STORE_DESCRIPTORS.filter((d) => pointedAt(d.example, 1) === undefined).map((d) => d.providers[0]);
    expect(inProcess.sort()).toEqual(["faiss", "in-memory", "lancedb"]);
    expect(remote.length).toBe(STORE_DESCRIPTORS.length - inProcess.length);
  });

  it.each(remote)("%s: open fails once, in under 15 s, with a retryable E_STORE_UNAVAILABLE naming the store, the address without credentials and the operation", async (name, d) => {
    const port = await closedPort();
    const config = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ".", vector_store: pointedAt(d.example, port) });
    const started = Date.now();
    const store = await createStore(config, join(tmp, name), () => undefined);
    const err = await store.open({ embedderId: FIXTURE_EMBEDDER_ID, dimensions: FIXTURE_DIMENSIONS }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const elapsed = Date.now() - started;
    await store.close().catch(() => undefined);
    expect(err).toBeInstanceOf(HierdocError);
    const e = err as HierdocError;
    expect({ code: e.code, retryable: e.retryable, operation: e.details.operation }).toEqual({ code: "E_STORE_UNAVAILABLE", retryable: true, operation: "open" });
    expect(d.providers.some((p) => e.message.includes(p)) || d.providers.includes(String(e.details.adapter))).toBe(true);
    expect(e.message).toContain(`127.0.0.1:${port}`);
    expect(JSON.stringify(e.toJSON())).not.toContain(SECRET);
    expect(e.message).not.toContain(`${USER}:`);
    expect(elapsed).toBeLessThan(15_000);
  }, 30_000);
});

describe("a service URL with credentials in it", () => {
  it.each(STORE_DESCRIPTORS.filter((d) => d.keys.some((k) => ["url", "host", "endpoint"].includes(k.key))).map((d) => [d.providers[0], d] as const))(
    "%s: is refused at validation, so no error message can repeat it",
    async (name, d) => {
      const key = d.keys.find((k) => ["url", "host", "endpoint"].includes(k.key))!.key;
      const block = { ...pointedAt(d.example, 9), [key]: `https://${USER}:${SECRET}@127.0.0.1:9` };
      const config = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ".", vector_store: block });
      const err = (await createStore(config, join(tmp, name), () => undefined).catch((e: unknown) => e)) as HierdocError;
      expect(err.code).toBe("E_CONFIG");
      expect(err.message).toBe(`vector_store.${key}: credentials do not belong in the URL: use api_key (or username / password) written as \${ENV_VAR}`);
    },
  );
});
