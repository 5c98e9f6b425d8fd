import { indexDirOf } from "@hierdoc/runtime";
import { readIndexFolderState } from "@hierdoc/tool";
import type { ReloadOptions } from "./index-watcher.js";
import { startMcpStdio } from "./mcp.js";
import { openIndexTool, type IndexLocation } from "./runtime.js";
import { startServer } from "./start-server.js";
import type { LogEntry, ServedTool, ServerLogger, StartServerOptions } from "./types.js";

/** Options of {@link serve}: where the index is, plus every {@link StartServerOptions} except `tool` / `open` / `reload`. */
export interface ServeOptions extends IndexLocation, Omit<StartServerOptions, "tool" | "open" | "reload"> {
  /**
   * Reload the index when another process changes it (`hierdoc ingest` in another terminal), checking the folder
   * every `intervalMs` (1,000). Default on; `false` serves the state opened at start until restarted.
   */
  reload?: boolean | { intervalMs?: number };
  /** Serve MCP over this process's stdin/stdout instead of HTTP (`hierdoc serve --mcp`). */
  stdio?: boolean;
  /** Stop gracefully on SIGINT / SIGTERM (and, in stdio mode, when stdin ends). Default true. */
  handleSignals?: boolean;
  /** Environment for `HIERDOC_SERVER_TOKEN` (token when `token` is not given) and provider keys. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** A server started by {@link serve}. */
export interface ServeHandle {
  /** Base URL in HTTP mode; undefined in stdio mode. */
  url?: string;
  /** Stops the server and closes the tool. Idempotent. */
  close(): Promise<void>;
  /** Settles when the server has stopped (after `close()` or a signal). */
  closed: Promise<void>;
  /** The tool served now (a reload replaces it). */
  readonly tool: ServedTool;
}

/** JSON lines on stderr (stdout stays free for the MCP stdio protocol). */
export const stderrLogger: ServerLogger = (entry: LogEntry) => {
  process.stderr.write(JSON.stringify(entry) + "\n");
};

/**
 * The `hierdoc serve` entry point: opens the index like the CLI does and serves it over HTTP (JSON API +
 * MCP at `/mcp`) or, with `stdio`, as an MCP server on stdin/stdout. Logs JSON lines to stderr by default.
 * The ingest token comes from `token`, else `HIERDOC_SERVER_TOKEN`.
 * @throws HierdocError E_INDEX_MISSING (no index and ingest not enabled), E_CONFIG, store and listen errors.
 */
export async function serve(options: ServeOptions = {}): Promise<ServeHandle> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? stderrLogger;
  const token = options.token ?? (env.HIERDOC_SERVER_TOKEN || undefined);
  const canIngest = !options.stdio && !!token && (options.ingestRoots?.length ?? 0) > 0;
  const openOptions = {
    env,
    onWarning: (m: string) => logger({ level: "warn", msg: "tool warning", warning: m }),
  };
  const indexDir = indexDirOf({ index: options.index });
  // Sampled before the open, so an ingest that finishes while it runs is reloaded.
  const since = options.reload === false ? undefined : await readIndexFolderState(indexDir);
  const tool = await openIndexTool(options, { mustExist: !canIngest, ...openOptions });
  // A reload uses the embedder already loaded when the config still names it (no second copy in memory while
  // the new tool opens); only the config and embedder are kept here, not the tool they came from.
  let loaded: Pick<typeof tool, "config" | "embedder"> = { config: tool.config, embedder: tool.embedder };
  const reload: ReloadOptions | undefined =
    since && {
      indexDir,
      since,
      intervalMs: typeof options.reload === "object" ? options.reload.intervalMs : undefined,
      open: async () => {
        const next = await openIndexTool(options, { mustExist: true, ...openOptions, reuseEmbedderOf: loaded });
        loaded = { config: next.config, embedder: next.embedder };
        return next;
      },
    };
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let stop: () => Promise<void>;
  let url: string | undefined;
  let served: () => ServedTool;
  if (options.stdio) {
    const mcp = await startMcpStdio(tool, { limits: options.limits, reload, logger });
    served = () => mcp.tool;
    stop = async () => {
      await mcp.close().catch(() => {});
      await mcp.tool.close();
    };
    if (options.handleSignals ?? true) process.stdin.once("end", () => void close());
  } else {
    const server = await startServer({ ...options, tool, token, logger, reload });
    served = () => server.tool;
    url = server.url;
    stop = () => server.close();
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= stop().finally(() => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      resolveClosed();
    });
    return closing;
  };
  const onSignal = (): void => void close();
  if (options.handleSignals ?? true) {
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
  }
  return {
    url,
    close,
    closed,
    get tool() {
      return served();
    },
  };
}
