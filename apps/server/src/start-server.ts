import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import { HierdocError } from "@hierdoc/core";
import { readIndexFolderState } from "@hierdoc/tool";
import { createApp } from "./app.js";
import { IndexWatcher } from "./index-watcher.js";
import { resolveIngestRoots } from "./ingest-paths.js";
import { ServerMetrics } from "./metrics.js";
import { OutlineIndex } from "./outline-index.js";
import { ReadGate } from "./read-gate.js";
import { UiAssets } from "./ui-routes.js";
import { DEFAULT_LIMITS, type LogEntry, type LogLevel, type RunningServer, type ServerLimits, type StartServerOptions } from "./types.js";

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * Resolves and checks limits.
 * @throws HierdocError E_CONFIG when a limit is not a positive integer or `topK` is above 100.
 */
export function resolveLimits(partial: Partial<ServerLimits> = {}): ServerLimits {
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...partial };
  for (const [k, v] of Object.entries(limits)) {
    if (!Number.isInteger(v) || v < 1) throw new HierdocError("E_CONFIG", `limits.${k} must be a positive integer (got ${v})`, { details: { path: `limits.${k}` } });
  }
  if (limits.topK > 100) throw new HierdocError("E_CONFIG", `limits.topK is at most 100 (got ${limits.topK})`, { details: { path: "limits.topK" } });
  return limits;
}

/**
 * Starts the HTTP JSON API (and MCP over Streamable HTTP at `/mcp`) over a tool.
 *
 * Security defaults: binds 127.0.0.1; `POST /ingest` needs the bearer token and reads only under
 * `ingestRoots`; CORS off (requests with a foreign `Origin` get 403); on loopback, a foreign `Host` header gets
 * 403 (DNS rebinding); bodies, top_k, per-client concurrency and request time are limited ({@link DEFAULT_LIMITS}).
 *
 * @throws HierdocError E_CONFIG for bad options (neither `tool` nor `open`, bad limits); the errors of `open`;
 *   the listen error (EADDRINUSE, EACCES) wrapped as E_CONFIG.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  if (!options.tool && !options.open) throw new HierdocError("E_CONFIG", "startServer needs `tool` or `open`");
  const limits = resolveLimits(options.limits);
  const minLevel = LEVELS[options.logLevel ?? "info"];
  const sink = options.logger;
  const log = (entry: LogEntry): void => {
    if (sink && LEVELS[entry.level] >= minLevel) sink({ time: new Date().toISOString(), ...entry });
  };
  const roots = await resolveIngestRoots(options.ingestRoots ?? [], (root) => log({ level: "warn", msg: "ingest root does not exist; ignored", root }));
  // Sampled before the open, so an ingest that finishes while it runs is reloaded.
  const since = options.reload && (options.reload.since ?? (await readIndexFolderState(options.reload.indexDir)));
  const tool = options.tool ?? (await options.open!());
  const host = options.host ?? "127.0.0.1";
  const state = { closing: false, inFlight: 0, url: "" };
  const gate = new ReadGate(tool, limits.requestTimeoutMs);
  const metrics = new ServerMetrics(() => gate.tool.chunkCount);
  const outlines = new OutlineIndex(() => gate.tool.store.scan(), () => gate.tool.chunkCount);
  // The first tool is closed by the server only with `closeTool`; the ones it opens itself, always.
  const closeServed = async (t: typeof tool): Promise<void> => {
    if (t !== tool || (options.closeTool ?? true)) await t.close();
  };
  const watcher = options.reload ? new IndexWatcher(gate, { ...options.reload, since }, { log, onSwap: () => outlines.invalidate(), closeOld: closeServed }) : undefined;
  const allowedHosts: string[] | undefined = LOOPBACK.has(host) ? [] : undefined;
  const app = createApp({
    gate,
    limits,
    token: options.token || undefined,
    roots,
    metrics,
    log,
    corsOrigins: options.cors?.origins,
    allowedHosts,
    mcp: options.mcp ?? true,
    outlines,
    watcher,
    ui: options.ui === false ? undefined : UiAssets.load(),
    state,
  });
  const server = createAdaptorServer({
    fetch: app.fetch,
    hostname: host,
    serverOptions: {
      requestTimeout: limits.requestTimeoutMs + 5_000,
      headersTimeout: Math.min(limits.requestTimeoutMs + 5_000, 60_000),
      keepAliveTimeout: 5_000,
    },
  }) as Server;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    if (options.closeTool ?? true) await tool.close().catch(() => {});
    throw new HierdocError("E_CONFIG", `cannot listen on ${host}:${options.port ?? 0} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err });
  }
  const port = (server.address() as AddressInfo).port;
  const hostPart = host.includes(":") ? `[${host}]` : host;
  state.url = `http://${hostPart}:${port}`;
  if (allowedHosts) for (const h of ["127.0.0.1", "localhost", "[::1]", hostPart]) allowedHosts.push(h, `${h}:${port}`);
  await watcher?.start();
  log({ level: "info", msg: "listening", url: state.url, ingest: roots.lexical.length > 0 && !!options.token, mcp: options.mcp ?? true, reload: !!watcher });

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      state.closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = Date.now() + (options.shutdownGraceMs ?? 10_000);
      while (state.inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      let done = false;
      void stopped.then(() => (done = true));
      const flushBy = Date.now() + 1_000;
      while (!done && Date.now() < flushBy) {
        server.closeIdleConnections();
        await new Promise((r) => setTimeout(r, 10));
      }
      server.closeAllConnections();
      await stopped;
      await watcher?.close();
      await closeServed(gate.tool);
      log({ level: "info", msg: "closed" });
    })();
    return closed;
  };
  return {
    url: state.url,
    port,
    get tool() {
      return gate.tool;
    },
    close,
  };
}
