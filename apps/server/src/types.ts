import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import type { ReloadOptions } from "./index-watcher.js";

/**
 * The part of {@link HierarchicalDocumentTool} the server uses. Any object with these members can be served
 * (a wrapper that adds latency in tests, a tool over another store).
 */
export type ServedTool = Pick<
  HierarchicalDocumentTool,
  "search" | "section" | "define" | "listDefinitions" | "refs" | "stats" | "ingest" | "close" | "chunkCount" | "store"
>;

/** Severity of a {@link LogEntry}. `debug` entries may carry request paths and query text; the others never do. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** One structured log line. At `info` and above it holds no secrets, no query text and no document text. */
export interface LogEntry {
  level: LogLevel;
  msg: string;
  [field: string]: unknown;
}

/** Receives log entries at or above the configured level. */
export type ServerLogger = (entry: LogEntry) => void;

/** Request limits. Every field has a default; see {@link DEFAULT_LIMITS}. */
export interface ServerLimits {
  /** Largest request body in bytes (413 above it). Default 65,536. */
  bodyBytes: number;
  /** Largest `top_k` a search may ask for (400 above it); at most 100. Default 100. */
  topK: number;
  /** Requests one client (remote address) may have in flight at once (429 above it). Default 8. */
  perClientConcurrency: number;
  /** Time a read request (search, section, definition, refs, MCP) may take (503 E_TIMEOUT after it). Default 30,000. */
  requestTimeoutMs: number;
  /** Time an ingest request may take before it is cancelled. Default 600,000. */
  ingestTimeoutMs: number;
  /** Largest number of paths in one ingest request. Default 100. */
  ingestPaths: number;
  /** Longest query, section id or term accepted, in characters. Default 2,000. */
  queryChars: number;
}

/** Default {@link ServerLimits}. */
export const DEFAULT_LIMITS: Readonly<ServerLimits> = Object.freeze({
  bodyBytes: 64 * 1024,
  topK: 100,
  perClientConcurrency: 8,
  requestTimeoutMs: 30_000,
  ingestTimeoutMs: 600_000,
  ingestPaths: 100,
  queryChars: 2_000,
});

/** Options of {@link startServer}. Give either `tool` or `open`. */
export interface StartServerOptions {
  /** An open tool to serve. */
  tool?: ServedTool;
  /** Opens the tool to serve (awaited before the server listens). */
  open?: () => Promise<ServedTool>;
  /** Interface to bind. Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Port; 0 (default) picks a free one (see the returned `url`). */
  port?: number;
  /** Bearer token for write endpoints (`POST /ingest`). Without one, ingest is refused (401). */
  token?: string;
  /** Folders ingest may read from. Paths outside them, `..` segments and symlinks that leave them get 403. */
  ingestRoots?: string[];
  /** Request limits; missing fields take {@link DEFAULT_LIMITS}. */
  limits?: Partial<ServerLimits>;
  /** Cross-origin access. Off by default: no CORS headers, and requests with a foreign `Origin` get 403. */
  cors?: { origins: string[] };
  /** Log sink; default: none. */
  logger?: ServerLogger;
  /** Lowest level passed to `logger`. Default `info`. */
  logLevel?: LogLevel;
  /** Serve the search page at `/` (with `/s/ID`, `/terms`, `/info`, `/assets/…`). Default true. */
  ui?: boolean;
  /** Serve MCP (Streamable HTTP) at `/mcp`. Default true. */
  mcp?: boolean;
  /** Close the tool when the server closes. Default true. */
  closeTool?: boolean;
  /** Time `close()` waits for in-flight requests before cutting connections. Default 10,000 ms. */
  shutdownGraceMs?: number;
  /**
   * Reload the index when another process (`hierdoc ingest` in another terminal) changes its folder: the
   * folder and how to open a new tool over it. Default: off (`serve()` turns it on). Tools the server opens
   * this way are always closed by it; the first one only when `closeTool` is true.
   */
  reload?: ReloadOptions;
}

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The bound port. */
  port: number;
  /** The served tool (after a reload, the new one). */
  readonly tool: ServedTool;
  /**
   * Graceful shutdown: stops accepting connections, answers new requests on open connections with 503,
   * waits for in-flight requests (up to `shutdownGraceMs`), then closes the tool. Idempotent.
   */
  close(): Promise<void>;
}
