export { startServer, resolveLimits } from "./start-server.js";
export { serve, stderrLogger, type ServeOptions, type ServeHandle } from "./serve.js";
export { startMcpStdio, createMcpServer, handleMcpHttp, MCP_TOOL_NAMES, type McpStdioHandle } from "./mcp.js";
export { openApiDocument } from "./openapi.js";
export { OutlineIndex, buildOutlines, type DocumentOutline, type OutlineSection } from "./outline-index.js";
export { registerBrowseRoutes, type BrowseContext } from "./browse-routes.js";
export { UiAssets, registerUiRoutes, PAGE_CSP, PAGE_ROUTES } from "./ui-routes.js";
export { openIndexTool, type IndexLocation } from "./runtime.js";
export { HttpError, toErrorResponse, type ApiErrorCode, type ErrorBody } from "./http-errors.js";
export { checkIngestPaths, resolveIngestRoots, type IngestRoots } from "./ingest-paths.js";
export { safeEqual, requireBearer } from "./auth.js";
export { ClientLimiter } from "./client-limiter.js";
export { ReadWriteLock } from "./rw-lock.js";
export { ReadGate, withTimeout } from "./read-gate.js";
export { IndexWatcher, DEFAULT_RELOAD_INTERVAL_MS, type ReloadOptions, type IndexStatus, type IndexWatcherHooks } from "./index-watcher.js";
export { ServerMetrics } from "./metrics.js";
export { requestSchemas, type SearchBody, type IngestBody } from "./schemas.js";
export { resultJson, responseJson, recordJson, definitionJson, ingestJson, crossReferenceJson } from "./json-format.js";
export {
  DEFAULT_LIMITS,
  type ServedTool,
  type ServerLimits,
  type StartServerOptions,
  type RunningServer,
  type ServerLogger,
  type LogEntry,
  type LogLevel,
} from "./types.js";
