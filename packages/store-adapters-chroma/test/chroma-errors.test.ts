import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "@jest/globals";
import { HierdocError } from "@hierdoc/core";
import { ChromaStore, mapChromaError } from "@hierdoc/store-adapters-chroma";

const OPEN = { embedderId: "e", dimensions: 4 };
let server: Server | undefined;

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  const s = server;
  server = undefined;
  if (s === undefined) return;
  s.closeAllConnections();
  await new Promise((resolve) => s.close(resolve));
});

async function rejection(p: Promise<unknown>): Promise<HierdocError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HierdocError);
  return err as HierdocError;
}

describe("ChromaStore failure handling (local HTTP stand-ins)", () => {
  it("retries a 5xx answer with backoff, then reports a retryable E_STORE naming adapter and operation", async () => {
    const paths: string[] = [];
    const url = await serve((req, res) => {
      paths.push(req.url ?? "");
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "InternalError", message: "boom" }));
    });
    const err = await rejection(new ChromaStore({ url, retries: 2, retryDelayMs: 5 }).open(OPEN));
    expect(err.code).toBe("E_STORE");
    expect(err.retryable).toBe(true);
    expect(err.details).toMatchObject({ adapter: "chroma", operation: "open", attempts: 3 });
    expect(err.message).toContain("boom");
    expect(paths).toEqual(Array(3).fill("/api/v2/pre-flight-checks"));
  });

  it("gives up on a server that never answers with E_TIMEOUT, without retrying", async () => {
    let requests = 0;
    const url = await serve(() => {
      requests++;
    });
    const t0 = Date.now();
    const err = await rejection(new ChromaStore({ url, timeoutMs: 200, retries: 3, retryDelayMs: 5 }).open(OPEN));
    expect(err.code).toBe("E_TIMEOUT");
    expect(err.details).toMatchObject({ adapter: "chroma", operation: "open", timeoutMs: 200 });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(requests).toBe(1);
  });

  it("maps Chroma's dimension complaint and client errors to typed codes", () => {
    const dim = Object.assign(new Error("Bad request with status: Collection expecting embedding with dimension of 3, got 2"), { name: "ChromaClientError" });
    expect(mapChromaError(dim, "upsert", "u")).toMatchObject({ code: "E_DIMENSION_MISMATCH", retryable: false, details: { adapter: "chroma", operation: "upsert" } });
    const down = Object.assign(new Error("Failed to connect to chromadb"), { name: "ChromaConnectionError" });
    expect(mapChromaError(down, "count", "http://h:1")).toMatchObject({ code: "E_STORE_UNAVAILABLE", retryable: true });
    const bad = Object.assign(new Error("Bad request"), { name: "ChromaClientError" });
    expect(mapChromaError(bad, "get", "u")).toMatchObject({ code: "E_STORE", retryable: false });
  });

  it("rejects a malformed collection name or URL at construction with E_CONFIG", () => {
    expect(() => new ChromaStore({ collection: "x" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
    expect(() => new ChromaStore({ url: "not a url" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
  });
});
