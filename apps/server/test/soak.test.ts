// Soak: HIERDOC_SOAK_REQUESTS mixed requests (default 2,000; e.g. 10000 for the longer run) at
// concurrency HIERDOC_SOAK_CONCURRENCY (default 16) against a real server in its own process on loopback.
// The server's RSS and heap come from its own /metrics (after a warm-up of 10% of the requests).
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PACKAGE_DIR, ensureBuilt, sampleTool, workspace } from "./helpers.js";

const TOTAL = Number(process.env.HIERDOC_SOAK_REQUESTS ?? 2_000);
const CONCURRENCY = Number(process.env.HIERDOC_SOAK_CONCURRENCY ?? 16);
const TIME_BUDGET_MS = Math.max(120_000, TOTAL * 60);

const ws = workspace();
let child: ChildProcess | undefined;
let url = "";

beforeAll(async () => {
  ensureBuilt();
  const tool = await sampleTool(ws.index);
  await tool.close();
  child = spawn(process.execPath, ["--expose-gc", join(PACKAGE_DIR, "test/fixtures/http-server.mjs"), ws.index, String(CONCURRENCY * 2)], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, NODE_OPTIONS: "" },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child!.stdout! }).once("line", resolve);
    child!.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  url = (JSON.parse(first) as { url: string }).url;
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once("exit", r));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child?.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
  ws.cleanup();
});

async function serverMemory(): Promise<{ rss: number; heap: number; text: string }> {
  await new Promise<void>((resolve) => {
    child!.once("message", () => resolve());
    child!.send("gc");
  });
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? NaN);
  return { rss: value("hierdoc_process_resident_memory_bytes"), heap: value("hierdoc_nodejs_heap_size_used_bytes"), text };
}

const QUERIES = ["erase a port record", "pump maintenance schedule", "garden plot allocation", "Section 4", "who is the Commissioner", "valve inspection", "data subject access"];
const SECTIONS = ["Section 1", "Section 2", "Section 3", "Section 4"];
const TERMS = ["port record", "port authorities", "contractor", "data subject"];

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

interface Planned {
  kind: string;
  expect: number[];
  send: () => Promise<Response>;
}

function plan(i: number, base: string): Planned {
  const post = (body: string) => () => fetch(`${base}/search`, { method: "POST", headers: { "content-type": "application/json" }, body });
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4: {
      const mode = ["hybrid", "semantic", "keyword", "exact"][i % 4];
      return { kind: "search", expect: [200], send: post(JSON.stringify({ query: QUERIES[i % QUERIES.length], top_k: 1 + (i % 20), mode })) };
    }
    case 5:
    case 6:
      return { kind: "section", expect: [200], send: () => fetch(`${base}/sections/${encodeURIComponent(SECTIONS[i % SECTIONS.length])}`) };
    case 7:
      return { kind: "definition", expect: [200], send: () => fetch(`${base}/definitions/${encodeURIComponent(TERMS[i % TERMS.length])}`) };
    case 8:
      return { kind: "invalid", expect: [400], send: i % 20 === 8 ? post(JSON.stringify({ query: "x", top_k: 1000 })) : post("{broken") };
    default:
      return { kind: "not-found", expect: [404], send: () => fetch(`${base}/sections/${encodeURIComponent(`Section ${9000 + i}`)}`) };
  }
}

describe(`soak: ${TOTAL} mixed requests at concurrency ${CONCURRENCY}`, () => {
  it(
    "serves every request with its expected status and no 5xx",
    async () => {
      const latencies: number[] = [];
      const statuses = new Map<number, number>();
      const unexpected: string[] = [];
      let next = 0;
      let before: { rss: number; heap: number } | undefined;
      const warmUp = Math.floor(TOTAL / 10);
      const t0 = performance.now();
      const worker = async () => {
        while (next < TOTAL && performance.now() - t0 < TIME_BUDGET_MS) {
          const i = next++;
          if (i === warmUp) before = await serverMemory();
          const p = plan(i, url);
          const s = performance.now();
          const res = await p.send();
          await res.arrayBuffer();
          latencies.push(performance.now() - s);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (!p.expect.includes(res.status) && unexpected.length < 10) unexpected.push(`${p.kind} #${i}: ${res.status}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const seconds = (performance.now() - t0) / 1000;
      latencies.sort((a, b) => a - b);
      const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
      const after = await serverMemory();
      const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
      console.log(
        `soak: ${latencies.length} requests in ${seconds.toFixed(1)} s (${(latencies.length / seconds).toFixed(0)} req/s), concurrency ${CONCURRENCY}; ` +
          `p50 ${pct(0.5).toFixed(1)} ms, p99 ${pct(0.99).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms; ` +
          `statuses ${JSON.stringify(Object.fromEntries(statuses))}; 5xx ${fivexx}; ` +
          `server RSS ${mb(before!.rss)} → ${mb(after.rss)} MB, heap used after GC ${mb(before!.heap)} → ${mb(after.heap)} MB (after ${warmUp} warm-up requests → end)`,
      );
      expect(latencies.length).toBe(TOTAL);
      expect(fivexx).toBe(0);
      expect(unexpected).toEqual([]);
      expect(after.heap - before!.heap).toBeLessThan(32 * 2 ** 20);
      const metrics = after.text;
      const served = [...metrics.matchAll(/^hierdoc_http_requests_total\{[^}]*route="(?:\/search|\/sections\/:id|\/definitions\/:term)"[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
      expect(served).toBe(TOTAL);
    },
    TIME_BUDGET_MS + 30_000,
  );
});
