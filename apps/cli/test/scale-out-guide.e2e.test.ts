import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { RecordedHttpRequest as RecordedRequest, ScriptedResponse } from "@hierdoc/core/testing";
import { findStore } from "@hierdoc/runtime";
import { FakeOpenSearch } from "@hierdoc/store-adapters-opensearch/testing";
import { FakeQdrant } from "@hierdoc/store-adapters-qdrant/testing";
import { CORPORA, REPO, runCli } from "./run-cli.js";

// docs/scale-out.md's agent.yaml blocks, run as written: each block marked `<!-- tested: NAME -->` is taken from
// the guide, its `source:` pointed at the GDPR, its `${ENV}` references set to a local wire-format server (the
// adapter packages' ./testing stand-ins), and driven through the built CLI. If the guide and the code drift
// apart (a renamed key, a different route), this fails.

const GUIDE = resolve(REPO, "docs/scale-out.md");

/** The fenced yaml block that follows `<!-- tested: NAME -->` in the guide. */
function guideBlock(markdown: string, name: string): string {
  const m = new RegExp(`<!-- tested: ${name} -->\\s*\`\`\`yaml\\n([\\s\\S]*?)\`\`\``).exec(markdown);
  if (!m) throw new Error(`docs/scale-out.md has no yaml block marked <!-- tested: ${name} -->`);
  return m[1];
}

/** The OpenSearch stand-in with an outage switch: matching requests get a 503 before the fake answers them. */
class OpenSearchWithOutage extends FakeOpenSearch {
  down?: (request: RecordedRequest) => boolean;
  protected override intercept(request: RecordedRequest): ScriptedResponse | undefined {
    if (!this.down?.(request)) return undefined;
    return { status: 503, body: { error: { root_cause: [{ type: "cluster_block_exception", reason: "blocked by: [SERVICE_UNAVAILABLE/2/no master];" }], type: "cluster_block_exception", reason: "blocked by: [SERVICE_UNAVAILABLE/2/no master];" }, status: 503 } };
  }
}

interface Guide {
  name: string;
  start(): Promise<{ url: string; requests: ReadonlyArray<RecordedRequest>; stop(): Promise<void>; down?: (request: RecordedRequest) => boolean }>;
  /** The environment the block's `${…}` references read, for a server at `url`. */
  env(url: string): Record<string, string>;
  /** The header the block's API key must arrive in, and its expected value. */
  auth: [header: string, value: string];
  /** Paths that prove the keyword index went to the cluster too (none for an in-memory keyword index). */
  keywordPath?: RegExp;
  /** What the engine's own client prints on stderr against a plain-http stand-in (the guide's URLs are https). */
  clientNotice?: string;
}

const GUIDES: Guide[] = [
  {
    name: "opensearch",
    start: async () => {
      const s = new OpenSearchWithOutage();
      await s.start();
      return s;
    },
    env: (url) => ({ OPENSEARCH_URL: url, OPENSEARCH_API_KEY: "os-guide-key" }),
    auth: ["authorization", "ApiKey os-guide-key"],
    keywordPath: /^\/regulations-keyword\/_search$/,
  },
  {
    name: "qdrant",
    start: async () => {
      const s = new FakeQdrant();
      await s.start();
      return s;
    },
    env: (url) => ({ QDRANT_URL: url, QDRANT_API_KEY: "qd-guide-key" }),
    auth: ["api-key", "qd-guide-key"],
    clientNotice: "Api key is used with unsecure connection.\n",
  },
];

const GDPR = join(CORPORA, "gdpr/gdpr_2016_679.md");
const hasCorpus = existsSync(GDPR);
const markdown = existsSync(GUIDE) ? readFileSync(GUIDE, "utf8") : "";
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-scale-out-e2e-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("docs/scale-out.md", () => {
  it("has a tested block per engine whose provider is a registered store with native hybrid search", () => {
    for (const g of GUIDES) {
      const provider = /vector_store:\s*\{\s*provider:\s*([\w-]+)/.exec(guideBlock(markdown, g.name))?.[1];
      expect([g.name, provider, findStore(provider ?? "")?.capabilities.nativeHybrid]).toEqual([g.name, g.name, true]);
    }
  });
});

const suite = hasCorpus ? describe : describe.skip;
suite.each(GUIDES)(`the guide's $name block, through the built CLI against the local wire-format server${hasCorpus ? "" : " (skipped: ../shared/corpora not present)"}`, (g) => {
  let server: Awaited<ReturnType<Guide["start"]>>;
  let config: string;
  let env: Record<string, string>;
  const index = join(tmp, g.name);
  const cli = (args: string[]) => runCli([...args, "--config", config, "--index", index, "--json"], { env, timeoutMs: 300_000 });

  beforeAll(async () => {
    server = await g.start();
    env = g.env(server.url);
    config = join(tmp, `${g.name}.yaml`);
    // The one edit: the guide's `source:` points at the reader's folder; here it is the GDPR.
    writeFileSync(config, guideBlock(markdown, g.name).replace(/^(\s*source:).*$/m, `$1 ${GDPR}`));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("ingests the GDPR into the engine, the API key read from the environment", async () => {
    const res = await cli(["ingest"]);
    const report = JSON.parse(res.stdout);
    expect([res.code, report.files.map((f: { outcome: string; error?: unknown }) => f.error ?? f.outcome)]).toEqual([0, ["added"]]);
    expect(report.chunks_written).toBeGreaterThan(100);
    expect(existsSync(join(index, "store"))).toBe(false);
    const [header, value] = g.auth;
    expect(server.requests.length).toBeGreaterThan(1);
    expect(server.requests.filter((r) => r.headers[header] !== value)).toEqual([]);
  }, 300_000);

  it("ranks Article 17 first by the native_hybrid route, as the guide says", async () => {
    expect(markdown).toMatch(new RegExp(`${g.name}[^\\n]*\`native_hybrid\``, "i"));
    for (const query of ["right to erasure", "Article 17"]) {
      const res = await cli(["search", query, "--top-k", "3"]);
      expect([res.code, res.stderr.replace(g.clientNotice ?? "", "")]).toEqual([0, ""]);
      const out = JSON.parse(res.stdout);
      expect([query, out.results[0].section_id, out.route, out.warnings]).toEqual([query, "Article 17", "native_hybrid", []]);
    }
  }, 120_000);

  const keywordPath = g.keywordPath;
  (keywordPath ? it : it.skip)(`answers keyword mode from the cluster's keyword index${keywordPath ? "" : " (skipped: this block keeps the keyword index in memory)"}`, async () => {
    const before = server.requests.filter((r) => keywordPath!.test(r.path)).length;
    const res = await cli(["search", "erasure of personal data without undue delay", "--mode", "keyword", "--top-k", "3"]);
    expect([res.code, res.stderr]).toEqual([0, ""]);
    const out = JSON.parse(res.stdout);
    // The stand-in's BM25 has no stemming (the cluster's analyzer does), so only the top 3 is asserted.
    expect([out.route, out.results.map((r: { section_id: string }) => r.section_id)]).toEqual(["single_leg", expect.arrayContaining(["Article 17"])]);
    expect(server.requests.filter((r) => keywordPath!.test(r.path)).length).toBe(before + 1);
  }, 120_000);

  (keywordPath ? it : it.skip)(
    `degrades as the guide says: hybrid query down → app-level fusion, keyword index down too → semantic only, exit 0${keywordPath ? "" : " (skipped: no keyword index in the cluster)"}`,
    async () => {
      const hybridPosts = () => server.requests.filter((r) => r.method === "POST" && r.body?.query?.hybrid !== undefined).length;
      const before = hybridPosts();
      server.down = (r) => r.method === "POST" && (r.body?.query?.hybrid !== undefined || keywordPath!.test(r.path));
      try {
        const res = await cli(["search", "right to erasure", "--top-k", "3"]);
        expect(res.code).toBe(0);
        const out = JSON.parse(res.stdout);
        // The same warnings go to stderr, one line each.
        expect(res.stderr.trim().split("\n")).toEqual(out.warnings.map((w: string) => `warning: ${w}`));
        expect(out.route).toBe("fallback");
        expect(out.warnings).toEqual([
          expect.stringMatching(/^native_hybrid leg failed \(.*unavailable.*\); continuing with app-level fusion$/),
          expect.stringMatching(/^keyword leg failed \(.*\); continuing with semantic only$/),
        ]);
        expect(out.results.length).toBe(3);
        expect(markdown).toContain("continuing with app-level fusion");
        expect(markdown).toContain("continuing with semantic only");
        // The store retried the retryable 503 before the router gave up on the leg.
        expect(hybridPosts() - before).toBeGreaterThan(1);
      } finally {
        server.down = undefined;
      }
    },
    120_000,
  );
});
