import { HierdocError } from "@hierdoc/core";
import { err } from "../io.js";
import type { IndexOptions } from "../runtime.js";

/** Options of `hierdoc serve`. */
export interface ServeCommandOptions extends IndexOptions {
  port?: string;
  host?: string;
  mcp?: boolean;
  ingestRoot?: string[];
  corsOrigin?: string[];
}

/**
 * `hierdoc serve`: the HTTP JSON API (+ MCP at /mcp) over the index, or with `--mcp` an MCP server on
 * stdin/stdout. The ingest token comes from HIERDOC_SERVER_TOKEN. Runs until SIGINT / SIGTERM.
 */
export async function serveCommand(opts: ServeCommandOptions): Promise<number> {
  const port = opts.port === undefined ? 8787 : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HierdocError("E_INVALID_ARGUMENT", `--port must be 0–65535 (got "${opts.port}")`);
  const { serve } = await import("@hierdoc/server");
  const handle = await serve({
    index: opts.index,
    config: opts.config,
    toolName: opts.tool,
    stdio: Boolean(opts.mcp),
    host: opts.host,
    port,
    ingestRoots: opts.ingestRoot,
    cors: opts.corsOrigin ? { origins: opts.corsOrigin } : undefined,
  });
  if (handle.url) err(`hierdoc serving ${handle.url} (search page at /, POST /search, GET /sections/:id, /definitions/:term, /refs/:id, /health, /metrics, /openapi.json, MCP at /mcp)`);
  await handle.closed;
  return 0;
}
