// Typed calls to the server's JSON API: the page uses exactly the routes any other client uses.

export interface Definition {
  term: string;
  definition_text: string;
  source_section: string;
  source_path?: string;
  chunk_id?: string;
}

export interface CrossReference {
  text: string;
  target_section_id: string | null;
  external: boolean;
  cited_document?: string | null;
  target_source_path?: string;
}

export interface Result {
  id: string;
  rank: number;
  score: number;
  content: string;
  context: string;
  source_path: string;
  section_id: string;
  section_title: string;
  parent_chain: string[];
  chunk_type: string;
  scores: Record<string, number | null>;
  ranks: Record<string, number | null>;
  definitions: Definition[];
  cross_references: CrossReference[];
}

export interface SearchResponse {
  query: string;
  mode: string;
  results: Result[];
  warnings: string[];
  timings_ms: Record<string, number>;
}

export interface Chunk {
  id: string;
  content: string;
  source_path: string;
  section_id: string;
  section_title: string;
  aliases: string[];
  unit_ids: string[];
  parent_chain: string[];
  chunk_type: string;
  cross_references: CrossReference[];
}

export interface Refs {
  section_id: string;
  outgoing: CrossReference[];
  incoming: Array<{ from_section_id: string; source_path: string; text: string }>;
}

export interface DocumentSummary {
  source_path: string;
  title: string;
  chunks: number;
  sections: number;
  first_section_id: string | null;
}

export interface OutlineSection {
  section_id: string;
  section_title: string;
  parent_chain: string[];
  chunk_type: string;
  chunks: number;
}

export interface Outline {
  source_path: string;
  title: string;
  sections: OutlineSection[];
}

export interface Stats {
  files: number;
  chunks: number;
  definitions: number;
  keyword_docs: number;
  embedder: string;
  dimensions: number;
  store: string;
  capabilities: Record<string, unknown>;
  documents: DocumentSummary[];
}

export interface SearchRequest {
  query: string;
  mode?: string;
  top_k?: number;
  filters?: { source?: string; section_prefix?: string; chunk_type?: string };
}

/** A failed API call, with the server's error code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { ...init, headers: { accept: "application/json", ...(init?.body ? { "content-type": "application/json" } : {}) } });
  const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  if (!res.ok) throw new ApiError(res.status, body?.error?.code ?? "E_HTTP", body?.error?.message ?? `HTTP ${res.status}`);
  return body as T;
}

const seg = (s: string): string => encodeURIComponent(s);
const memo = new Map<string, Promise<unknown>>();
function once<T>(key: string, load: () => Promise<T>): Promise<T> {
  let p = memo.get(key) as Promise<T> | undefined;
  if (!p) {
    p = load();
    memo.set(key, p);
    p.catch(() => memo.delete(key));
  }
  return p;
}

export const api = {
  search: (body: SearchRequest) => call<SearchResponse>("/search", { method: "POST", body: JSON.stringify(body) }),
  section: (id: string) => call<{ chunks: Chunk[] }>(`/sections/${seg(id)}`),
  refs: (id: string) => call<Refs>(`/refs/${seg(id)}`),
  /** Every defined term (fetched once per page load). */
  definitions: () => once("definitions", () => call<{ definitions: Definition[] }>("/definitions").then((r) => r.definitions)),
  documents: () => once("documents", () => call<{ documents: DocumentSummary[] }>("/documents").then((r) => r.documents)),
  outline: (source: string) => once(`outline:${source}`, () => call<Outline>(`/outline?source=${seg(source)}`)),
  stats: () => call<Stats>("/stats"),
};
