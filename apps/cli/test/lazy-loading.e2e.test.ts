import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, runCli, SAMPLE, type CliRun } from "./run-cli.js";

// Cold start: each command loads only what it needs. A module hook records every file the CLI loads.
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-lazy-"));
const index = join(tmp, "index");
const hooks = join(tmp, "hooks.mjs");
const register = join(tmp, "register.mjs");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let runs = 0;
/** Runs the CLI and returns its result with the file URLs of every module it loaded. */
async function loaded(args: string[], timeoutMs?: number): Promise<CliRun & { modules: string[] }> {
  const log = join(tmp, `modules-${runs++}.log`);
  writeFileSync(log, "");
  const res = await runCli(args, { nodeArgs: ["--import", register], env: { HIERDOC_MODULE_LOG: log }, ...(timeoutMs ? { timeoutMs } : {}) });
  return { ...res, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

const OTEL_SDK = ["/@opentelemetry/sdk-trace-node/", "/@opentelemetry/exporter-trace-otlp-http/"];
/** Client SDKs of the API embedders, context writers, rerankers and the OpenSearch keyword index. */
const CLIENT_PACKAGES = ["openai", "@anthropic-ai/sdk", "cohere-ai", "voyageai", "@opensearch-project/opensearch"];
/** Document converters' libraries: only ingest (and inspect) read documents. */
const CONVERTER_PACKAGES = ["mammoth", "unpdf", "turndown"];
const CLIENT_SDKS = CLIENT_PACKAGES.map((name) => `/node_modules/${name}/`);
const CONVERTERS = [...CONVERTER_PACKAGES.map((name) => `/node_modules/${name}/`), "/packages/convert/", "/packages/chunker/"];
const hits = (modules: string[], parts: string[]) => modules.filter((m) => parts.some((p) => m.includes(p)));

describe("hierdoc loads heavy modules only for the commands that need them", () => {
  let ingest: CliRun & { modules: string[] };

  beforeAll(async () => {
    writeFileSync(
      hooks,
      `import { appendFileSync } from "node:fs";\n` +
        `export async function load(url, context, next) {\n` +
        `  if (url.startsWith("file:")) appendFileSync(process.env.HIERDOC_MODULE_LOG, url + "\\n");\n` +
        `  return next(url, context);\n}\n`,
    );
    writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)});\n`);
    ingest = await loaded(["ingest", SAMPLE, "--index", index, "--quiet"], 300_000);
    // The whole run is in the failure message: a flaky ingest must be diagnosable from the CI log.
    expect({ code: ingest.code, index: existsSync(join(index, "hierdoc.json")), stdout: ingest.stdout, stderr: ingest.stderr }).toMatchObject({ code: 0, index: true });
  }, 300_000);

  it("the package names checked below are installed, and ingest loads the converters and the chunker", () => {
    // Installed at the root or nested in a workspace package (npm keeps a second version there).
    const roots = [REPO, ...readdirSync(join(REPO, "packages")).map((dir) => join(REPO, "packages", dir))];
    const installed = (name: string) => roots.some((root) => existsSync(join(root, "node_modules", name, "package.json")));
    for (const name of [...CLIENT_PACKAGES, ...CONVERTER_PACKAGES]) expect([name, installed(name)]).toEqual([name, true]);
    expect(hits(ingest.modules, ["/packages/convert/"]).length).toBeGreaterThan(0);
    expect(hits(ingest.modules, ["/packages/chunker/"]).length).toBeGreaterThan(0);
  });

  it("--version loads neither the index runtime nor the OpenTelemetry SDK", async () => {
    const res = await loaded(["--version"]);
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe("0.1.0");
    expect(res.modules.length).toBeGreaterThan(0);
    expect(hits(res.modules, ["/packages/runtime/", "/packages/tool/", ...OTEL_SDK])).toEqual([]);
  });

  it("search loads the runtime but not the OTel SDK, eval, the server, the progress bar, client SDKs or converters; --otel loads the SDK", async () => {
    const plain = await loaded(["search", "port records", "--index", index, "--json"]);
    expect({ code: plain.code, stderr: plain.stderr }).toMatchObject({ code: 0 });
    expect(JSON.parse(plain.stdout).results.length).toBeGreaterThan(0);
    expect(hits(plain.modules, ["/packages/runtime/"]).length).toBeGreaterThan(0);
    expect(hits(plain.modules, [...OTEL_SDK, "/packages/eval/", "/apps/server/", "/cli-progress/"])).toEqual([]);
    // Client SDKs load on first use inside the class that calls the API; the ingest pipeline on the first ingest.
    expect(hits(plain.modules, CLIENT_SDKS)).toEqual([]);
    expect(hits(plain.modules, CONVERTERS)).toEqual([]);

    // A receiver that accepts every export, so the traced run exits without waiting for a timeout.
    const receiver = createServer((req, res) => req.resume().on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}")));
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`;
      const traced = await loaded(["search", "port records", "--index", index, "--json", "--otel", url]);
      expect(traced.code).toBe(0);
      expect(hits(traced.modules, OTEL_SDK).length).toBeGreaterThan(0);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("the rerank package loads for the default lexical reranker (without any client SDK) and not with rerank provider none", async () => {
    const config = join(tmp, "agent.yaml");
    const yaml = (rerank: string) => `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${SAMPLE}\n    rerank: ${rerank}\n`;
    writeFileSync(config, yaml("{ provider: none }"));
    const off = await loaded(["search", "port records", "--config", config, "--tool", "docs", "--index", index, "--json"]);
    expect(off.code).toBe(0);
    expect(hits(off.modules, ["/packages/rerank/"])).toEqual([]);

    writeFileSync(config, yaml("{ provider: lexical }"));
    const lexical = await loaded(["search", "port records", "--config", config, "--tool", "docs", "--index", index, "--json"]);
    expect(lexical.code).toBe(0);
    expect(hits(lexical.modules, ["/packages/rerank/"]).length).toBeGreaterThan(0);
    expect(hits(lexical.modules, CLIENT_SDKS)).toEqual([]);
  });
});
