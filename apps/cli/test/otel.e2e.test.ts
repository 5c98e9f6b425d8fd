import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, SAMPLE } from "./run-cli.js";

interface OtlpSpan {
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** A local OTLP/HTTP (JSON) trace receiver. */
function collector(): { server: Server; spans: OtlpSpan[]; contentTypes: string[]; start: () => Promise<string> } {
  const spans: OtlpSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      contentTypes.push(String(req.headers["content-type"]));
      const parsed = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
      for (const rs of parsed.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return {
    server,
    spans,
    contentTypes,
    start: () => new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`))),
  };
}

const attr = (span: OtlpSpan, key: string): unknown => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v ? Object.values(v)[0] : undefined;
};

describe("hierdoc --otel exports traces over OTLP/HTTP", () => {
  const tmp = mkdtempSync(join(tmpdir(), "hierdoc-otel-"));
  const index = join(tmp, "index");
  const otlp = collector();
  let url = "";
  beforeAll(async () => {
    url = await otlp.start();
    const res = await runCli(["ingest", SAMPLE, "--index", index, "--quiet", "--otel", url], { timeoutMs: 300_000 });
    // The whole run is in the failure message: a flaky ingest must be diagnosable from the CI log.
    expect({ code: res.code, index: existsSync(join(index, "hierdoc.json")), stdout: res.stdout, stderr: res.stderr }).toMatchObject({ code: 0, index: true });
  }, 300_000);
  afterAll(async () => {
    await new Promise((r) => otlp.server.close(r));
    rmSync(tmp, { recursive: true, force: true });
  });

  it("an ingest exports its stage spans", () => {
    const names = new Set(otlp.spans.map((s) => s.name));
    for (const n of ["hierarchical_document.ingest", "hierarchical_document.ingest.parse", "hierarchical_document.ingest.embed", "hierarchical_document.ingest.store"]) {
      expect(names).toContain(n);
    }
    const ingest = otlp.spans.find((s) => s.name === "hierarchical_document.ingest")!;
    expect(attr(ingest, "ingest.files")).toBe(3);
  });

  it("a search exports hierarchical_document.search and keyword.search with their attributes", async () => {
    otlp.spans.length = 0;
    const res = await runCli(["search", "erasure of port records", "--index", index, "--top-k", "4", "--otel", url]);
    expect({ code: res.code, stderr: res.stderr }).toMatchObject({ code: 0 });
    const search = otlp.spans.find((s) => s.name === "hierarchical_document.search");
    expect(search).toBeDefined();
    expect(attr(search!, "search.mode")).toBe("fallback");
    expect(attr(search!, "search.provider")).toBe("memory");
    expect(Number(attr(search!, "search.top_k"))).toBe(4);
    expect(Number(attr(search!, "search.result_count"))).toBe(4);
    const keyword = otlp.spans.find((s) => s.name === "keyword.search");
    expect(keyword).toBeDefined();
    expect(Number(attr(keyword!, "keyword.search.result_count"))).toBeGreaterThan(0);
    expect(otlp.contentTypes.every((c) => c.includes("json"))).toBe(true);
  });
});
