import { beforeEach, describe, expect, it } from "@jest/globals";
import { RecordingHttpServer, closedPort, reopenableStore, serveDuringSuite, type RecordedHttpRequest } from "@hierdoc/core/testing";
import type { VectorStoreAdapter } from "@hierdoc/core";

interface Echoed extends RecordedHttpRequest {
  tag: string;
}

class EchoServer extends RecordingHttpServer<Echoed> {
  protected override respond(request: Echoed): [number, unknown] {
    if (request.path === "/boom") throw Object.assign(new Error("exploded"), { status: 418 });
    if (request.path === "/empty") return [204, undefined];
    return [200, { echo: request.body ?? null, path: request.path }];
  }

  protected override failureBody(status: number): unknown {
    return { failed: status };
  }

  protected override describe(request: RecordedHttpRequest, url: URL): Echoed {
    return { ...request, tag: url.searchParams.getAll("t").join("+") };
  }

  protected override intercept(request: Echoed): { status: number; body: unknown } | undefined {
    return request.path === "/probe" ? { status: 200, body: { version: "1" } } : undefined;
  }
}

// serveDuringSuite starts it before these tests and stops it after them.
const server = serveDuringSuite(new EchoServer());
beforeEach(() => server.reset());

describe("RecordingHttpServer", () => {
  it("listens on 127.0.0.1, records method, path, query, headers and the JSON body, and routes to respond()", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/a/b?x=1&t=p&t=q`, { method: "POST", headers: { "content-type": "application/json", "api-key": "k" }, body: JSON.stringify({ n: 1 }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ echo: { n: 1 }, path: "/a/b" });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: "POST", path: "/a/b", query: { x: "1", t: "q" }, contentType: "application/json", body: { n: 1 }, tag: "p+q" });
    expect(server.requests[0].headers["api-key"]).toBe("k");
    expect(server.find("/b", "POST")).toHaveLength(1);
    expect(server.find("/b", "GET")).toHaveLength(0);
  });

  it("answers from the failNext queue first, one per request, with the default body and scripted headers", async () => {
    server.failNext = [{ status: 503, headers: { "retry-after": "1" } }, { status: 500, body: { custom: true } }];
    const first = await fetch(`${server.url}/x`);
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("1");
    expect(await first.json()).toEqual({ failed: 503 });
    const second = await fetch(`${server.url}/x`);
    expect([second.status, await second.json()]).toEqual([500, { custom: true }]);
    const third = await fetch(`${server.url}/x`);
    expect(third.status).toBe(200);
    expect(server.requests).toHaveLength(3);
  });

  it("turns a thrown route error into its status, answers undefined bodies empty, and intercepts before hang", async () => {
    const boom = await fetch(`${server.url}/boom`);
    expect([boom.status, await boom.json()]).toEqual([418, { error: "exploded" }]);
    const empty = await fetch(`${server.url}/empty`);
    expect([empty.status, await empty.text()]).toEqual([204, ""]);
    server.hang = true;
    const probe = await fetch(`${server.url}/probe`);
    expect(await probe.json()).toEqual({ version: "1" });
    const hung = await fetch(`${server.url}/x`, { signal: AbortSignal.timeout(100) }).catch((err: unknown) => (err as Error).name);
    expect(hung).toBe("TimeoutError");
    expect(server.requests.map((r) => r.path)).toEqual(["/boom", "/empty", "/probe", "/x"]);
  });

  it("closedPort returns a port that refuses connections", async () => {
    const port = await closedPort();
    const err = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e as Error & { cause?: { code?: string } });
    expect((err as { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
  });

  it("reopenableStore makes the store and each reopened store with make(), and cleans up with cleanup()", async () => {
    const made: VectorStoreAdapter[] = [];
    let cleaned = 0;
    const make = (): VectorStoreAdapter => {
      const s = { id: `s${made.length}` } as unknown as VectorStoreAdapter;
      made.push(s);
      return s;
    };
    const under = reopenableStore(make, () => cleaned++);
    expect(under.store).toBe(made[0]);
    expect(await under.reopen?.()).toBe(made[1]);
    await under.cleanup();
    expect([made.length, cleaned]).toEqual([2, 1]);
  });
});
