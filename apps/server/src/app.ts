import { getConnInfo } from "@hono/node-server/conninfo";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { matchedRoutes } from "hono/route";
import type { z } from "zod";
import { requireBearer } from "./auth.js";
import { ClientLimiter } from "./client-limiter.js";
import { HttpError, toErrorResponse } from "./http-errors.js";
import { checkIngestPaths, type IngestRoots } from "./ingest-paths.js";
import { crossReferenceJson, definitionJson, ingestJson, recordJson, responseJson } from "./json-format.js";
import { registerBrowseRoutes } from "./browse-routes.js";
import type { IndexWatcher } from "./index-watcher.js";
import { handleMcpHttp } from "./mcp.js";
import type { ServerMetrics } from "./metrics.js";
import { openApiDocument } from "./openapi.js";
import type { OutlineIndex } from "./outline-index.js";
import type { ReadGate } from "./read-gate.js";
import { describeIssues, requestSchemas } from "./schemas.js";
import type { LogEntry, ServerLimits } from "./types.js";
import { registerUiRoutes, type UiAssets } from "./ui-routes.js";

/** Everything the routes need; built by {@link startServer}. */
export interface AppContext {
  /** The served tool (replaced on a reload) and the read/write holds on it. */
  gate: ReadGate;
  limits: ServerLimits;
  token: string | undefined;
  roots: IngestRoots;
  metrics: ServerMetrics;
  log: (entry: LogEntry) => void;
  corsOrigins: string[] | undefined;
  /** Host header values accepted (DNS-rebinding guard); undefined accepts any. */
  allowedHosts: string[] | undefined;
  mcp: boolean;
  /** Document outlines for `/documents`, `/outline` and `/stats`. */
  outlines: OutlineIndex;
  /** Reloads the index when another process changes it; undefined when off. */
  watcher: IndexWatcher | undefined;
  /** The built search page, served at `/`, `/s/…`, `/terms`, `/info` and `/assets/…`; undefined turns it off. */
  ui: UiAssets | undefined;
  state: { closing: boolean; inFlight: number; url: string };
}

type Env = { Variables: { route: string } };

const UNLIMITED = new Set(["/health", "/metrics", "/openapi.json"]);

function setRoute(c: Context<Env>, route: string): void {
  c.set("route", route);
}

/** The route pattern for metrics and logs (never the raw path, which may hold query text). */
function routeOf(c: Context<Env>): string {
  const own = c.get("route");
  if (own) return own;
  const handler = matchedRoutes(c).filter((r) => r.path !== "*" && r.path !== "/*").at(-1);
  return handler?.path ?? "unmatched";
}

async function parseBody<T extends z.ZodType>(c: Context<Env>, schema: T): Promise<z.infer<T>> {
  const raw = await c.req.text();
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw new HttpError(400, "E_INVALID_ARGUMENT", "the body is not valid JSON");
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new HttpError(400, "E_INVALID_ARGUMENT", describeIssues(parsed.error));
  return parsed.data;
}

function param(c: Context<Env>, name: string, schema: z.ZodType<string>): string {
  const parsed = schema.safeParse(c.req.param(name));
  if (!parsed.success) throw new HttpError(400, "E_INVALID_ARGUMENT", `${name}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

function clientOf(c: Context<Env>): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** Builds the Hono application: middleware (metrics, logs, guards, limits) and every route. */
export function createApp(ctx: AppContext): Hono<Env> {
  const app = new Hono<Env>();
  const schemas = requestSchemas(ctx.limits);
  const limiter = new ClientLimiter(ctx.limits.perClientConcurrency);

  app.onError((err, c) => {
    const { status, body, headers, internal } = toErrorResponse(err);
    if (internal) {
      ctx.log({ level: "error", msg: "request failed", route: routeOf(c), status, code: body.error.code, error: (err as Error).name });
      ctx.log({ level: "debug", msg: "request failure detail", error: (err as Error).message, stack: (err as Error).stack });
    }
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
    return c.json(body, status as 400);
  });
  app.notFound((c) => c.json({ error: { code: "E_NOT_FOUND", message: `no route ${c.req.method} ${new URL(c.req.url).pathname}` } }, 404));

  app.use("*", async (c, next) => {
    const t0 = performance.now();
    ctx.state.inFlight++;
    try {
      await next();
    } finally {
      ctx.state.inFlight--;
      const route = routeOf(c);
      const status = c.res.status;
      const seconds = (performance.now() - t0) / 1000;
      ctx.metrics.observe(c.req.method, route, status, seconds);
      ctx.log({ level: "info", msg: "request", method: c.req.method, route, status, ms: Math.round(seconds * 1000 * 10) / 10 });
      ctx.log({ level: "debug", msg: "request detail", method: c.req.method, path: new URL(c.req.url).pathname, client: clientOf(c) });
    }
  });

  app.use("*", async (c, next) => {
    if (ctx.state.closing) {
      c.header("connection", "close");
      throw new HttpError(503, "E_UNAVAILABLE", "the server is shutting down", { headers: { "retry-after": "1", connection: "close" } });
    }
    if (ctx.allowedHosts) {
      const host = (c.req.header("host") ?? "").toLowerCase();
      if (!ctx.allowedHosts.includes(host)) throw new HttpError(403, "E_FORBIDDEN", "unexpected Host header");
    }
    const origin = c.req.header("origin");
    // Same-origin (the page itself) is recognised by the Host header only where that header is checked (loopback).
    const sameOrigin = !!ctx.allowedHosts && origin === `http://${(c.req.header("host") ?? "").toLowerCase()}`;
    if (origin && !sameOrigin && !(ctx.corsOrigins ?? []).includes(origin) && origin !== ctx.state.url) {
      throw new HttpError(403, "E_FORBIDDEN", "cross-origin requests are not allowed from this origin");
    }
    await next();
  });

  if (ctx.corsOrigins && ctx.corsOrigins.length > 0) {
    app.use("*", cors({ origin: ctx.corsOrigins, allowMethods: ["GET", "POST", "OPTIONS"], allowHeaders: ["content-type", "authorization", "mcp-protocol-version"], maxAge: 600 }));
  }

  const limited: MiddlewareHandler<Env> = async (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (UNLIMITED.has(path) || path.startsWith("/assets/")) return next();
    const release = limiter.acquire(clientOf(c));
    try {
      await next();
    } finally {
      release();
    }
  };
  app.use("*", limited);
  app.use(
    "*",
    bodyLimit({
      maxSize: ctx.limits.bodyBytes,
      onError: () => {
        throw new HttpError(413, "E_INPUT_TOO_LARGE", `the body is larger than ${ctx.limits.bodyBytes} bytes`);
      },
    }),
  );

  app.post("/search", async (c) => {
    setRoute(c, "/search");
    const body = await parseBody(c, schemas.search);
    const f = body.filters;
    const filters = f ? { source: f.source, sectionPrefix: f.section_prefix, chunkType: f.chunk_type } : undefined;
    const mode = body.mode ?? "hybrid";
    const res = await ctx.gate.read("search", (tool) => tool.search(body.query, { topK: body.top_k, mode, filters }));
    return c.json(responseJson(body.query, mode, res));
  });

  app.get("/sections/:id", async (c) => {
    setRoute(c, "/sections/:id");
    const id = param(c, "id", schemas.id);
    const records = await ctx.gate.read("section", (tool) => tool.section(id));
    if (records.length === 0) throw new HttpError(404, "E_NOT_FOUND", `no section "${id}" in the index`);
    return c.json({ query: id, found: true, chunks: records.map(recordJson) });
  });

  app.get("/definitions/:term", async (c) => {
    setRoute(c, "/definitions/:term");
    const term = param(c, "term", schemas.id);
    const entries = await ctx.gate.read("definition", (tool) => tool.define(term));
    if (entries.length === 0) throw new HttpError(404, "E_NOT_FOUND", `"${term}" is not a defined term in the index`);
    return c.json({ term, found: true, definitions: entries.map(definitionJson) });
  });

  app.get("/refs/:id", async (c) => {
    setRoute(c, "/refs/:id");
    const id = param(c, "id", schemas.id);
    const refs = await ctx.gate.readShared("refs", id, (tool) => tool.refs(id));
    if (!refs.sectionId) throw new HttpError(404, "E_NOT_FOUND", `no section "${id}" in the index`);
    return c.json({
      query: id,
      section_id: refs.sectionId,
      outgoing: refs.outgoing.map(crossReferenceJson),
      incoming: refs.incoming.map((x) => ({ from_section_id: x.fromSectionId, source_path: x.sourcePath, text: x.text })),
    });
  });

  app.post("/ingest", async (c) => {
    setRoute(c, "/ingest");
    requireBearer(c.req.header("authorization"), ctx.token);
    const body = await parseBody(c, schemas.ingest);
    const paths = await checkIngestPaths(body.paths, ctx.roots);
    if (ctx.gate.lock.writing) throw new HttpError(409, "E_CONFLICT", "another ingest is running; retry when it has finished", { retryable: true });
    const signal = AbortSignal.timeout(ctx.limits.ingestTimeoutMs);
    const report = await ctx.gate.write(async () => {
      // An ingest another process finished is loaded first: this one must not write over it from an old view.
      await ctx.watcher?.beforeWrite();
      let succeeded = false;
      try {
        const r = await ctx.gate.tool.ingest(paths, { force: body.force ?? false, signal });
        succeeded = true;
        return r;
      } finally {
        ctx.outlines.invalidate();
        await ctx.watcher?.afterWrite(succeeded);
      }
    });
    ctx.log({ level: "info", msg: "ingest", files: report.files.length, chunks_written: report.chunksWritten, chunks_deleted: report.chunksDeleted });
    return c.json(ingestJson(report));
  });

  registerBrowseRoutes(app, { gate: ctx.gate, outlines: ctx.outlines, maxChars: ctx.limits.queryChars });
  if (ctx.ui) registerUiRoutes(app, ctx.ui);

  app.get("/health", async (c) => {
    setRoute(c, "/health");
    return c.json({ status: "ok", chunks: ctx.gate.tool.chunkCount, ingesting: ctx.gate.lock.writing, index: indexStatusJson(ctx.watcher) });
  });

  app.get("/metrics", async (c) => {
    setRoute(c, "/metrics");
    const { body, contentType } = await ctx.metrics.render();
    return c.body(body, 200, { "content-type": contentType });
  });

  const openapi = JSON.stringify(openApiDocument(ctx.limits));
  app.get("/openapi.json", (c) => {
    setRoute(c, "/openapi.json");
    return c.body(openapi, 200, { "content-type": "application/json" });
  });

  if (ctx.mcp) {
    app.on(["GET", "POST", "DELETE"], "/mcp", async (c) => {
      setRoute(c, "/mcp");
      return handleMcpHttp(ctx.gate, ctx.limits, c.req.raw);
    });
  }
  return app;
}

/** The `index` object of `/health`: the served index state and its reloads (snake_case, as every answer). */
function indexStatusJson(watcher: IndexWatcher | undefined): Record<string, unknown> {
  if (!watcher) return { watching: false };
  const s = watcher.status();
  const last = s.lastReload;
  return {
    watching: s.watching,
    loaded_at: s.loadedAt,
    updated_at: s.updatedAt,
    reloads: s.reloads,
    reloading: s.reloading,
    waiting_for_lock: s.waitingForLock,
    last_reload: last && { at: last.at, reason: last.reason, ms: last.ms, chunks_before: last.chunksBefore, chunks_after: last.chunksAfter },
    last_error: s.lastError,
  };
}
