import type { VectorStoreAdapter } from "@hierdoc/core";

/** How {@link HierarchicalDocumentTool.open} got its catalog, exact index, definitions and resolver, its keyword index, and what the store says of its own open. */
export interface OpenInfo {
  /** `loaded`: from the persisted derived state; `scanned`: from a full scan of the store. */
  derived: "loaded" | "scanned";
  /** Why the derived state was scanned (missing, stale, unreadable, store cannot tell). */
  reason?: string;
  /** When `derived` is `loaded` with a `derived-delta.json` replayed on top: its chunks added and removed, sources changed. */
  delta?: { added: number; removed: number; sources: number };
  /**
   * The keyword index: `loaded` from `keyword/bm25.bin`, `converted` (loaded from an older format and rewritten),
   * `rebuilt` from a scan of the store (`reason` says why), `external` (a keyword index given by the caller, e.g. OpenSearch).
   * Absent until the open reached it.
   */
  keyword?: { state: "loaded" | "converted" | "rebuilt" | "external"; reason?: string };
  /**
   * The store's own account of its open when the adapter gives one (an `openInfo` object, e.g. the memory
   * store's `{graph: "viewed" | "extended" | "none", reason}`), copied as the adapter states it.
   */
  store?: Record<string, unknown>;
}

/**
 * The adapter's own `openInfo` object, when it keeps one (a shallow copy), else undefined. Any adapter may keep
 * one; the memory store's is `{graph, reason}` (see its README).
 */
export function storeOpenInfo(store: VectorStoreAdapter): Record<string, unknown> | undefined {
  const info = (store as { openInfo?: unknown }).openInfo;
  return info !== null && typeof info === "object" && !Array.isArray(info) ? { ...(info as Record<string, unknown>) } : undefined;
}

/** A store's open info as text: its keys and values in order, the reason in parentheses ("graph viewed", "graph none (no graph saved)"). */
export function describeStoreInfo(info: Record<string, unknown>): string {
  const { reason, ...rest } = info;
  const main = Object.entries(rest).map(([k, v]) => `${k} ${typeof v === "string" ? v : JSON.stringify(v)}`).join(", ");
  return reason === undefined ? main : `${main} (${String(reason)})`;
}

/**
 * One line saying how an open got each part: "derived state loaded; keyword index loaded; store: graph viewed",
 * with the reason of anything rebuilt or converted (for `hierdoc stats` and `--verbose`).
 */
export function describeOpenInfo(info: OpenInfo): string {
  const delta = info.delta ? ` with a delta (${info.delta.added} chunks added, ${info.delta.removed} removed)` : "";
  const parts = [`derived state ${info.derived}${delta}${info.reason ? ` (${info.reason})` : ""}`];
  if (info.keyword) parts.push(`keyword index ${info.keyword.state}${info.keyword.reason ? ` (${info.keyword.reason})` : ""}`);
  if (info.store) parts.push(`store: ${describeStoreInfo(info.store)}`);
  return parts.join("; ");
}
