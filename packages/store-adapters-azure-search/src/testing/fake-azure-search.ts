/* eslint-disable @typescript-eslint/no-explicit-any -- a wire stand-in: request bodies are arbitrary JSON, checked by the tests */
// A small in-memory stand-in for the Azure AI Search REST API calls the store makes (api-version
// 2024-07-01, learn.microsoft.com/rest/api/searchservice): GET /indexes('{name}'), POST /indexes,
// GET /indexes('{name}')/docs('{key}'), POST /indexes('{name}')/docs/search.index (upload / delete actions,
// 200 or 207 with per-item status) and POST /indexes('{name}')/docs/search.post.search (OData $filter with
// eq / gt / and / or / parentheses / search.in, orderby, top, select, count, BM25 `search` on searchFields,
// `vectorQueries` with cosine scored 1 / (1 + distance), and hybrid = both, fused by RRF with k = 60).
// Every request is recorded. Not Azure: it follows the documented shapes, nothing more.
import { RecordingHttpServer, bm25Rank, cosineSimilarity, type RecordedHttpRequest, type ScriptedResponse } from "@hierdoc/core/testing";

/** A recorded request, its path percent-decoded. */
export type RecordedRequest = RecordedHttpRequest;

interface Index {
  definition: any;
  docs: Map<string, Record<string, any>>;
}

export class FakeAzureSearch extends RecordingHttpServer<RecordedRequest> {
  readonly indexes = new Map<string, Index>();
  /** Per-item status to answer for the next indexing batch (e.g. 503 → a 207 answer). */
  itemStatusNext: number | undefined;
  protected override responseContentType = "application/json; odata.metadata=none";

  override reset(): void {
    super.reset();
    this.itemStatusNext = undefined;
  }

  /** Paths are recorded percent-decoded (`/indexes('name')/docs`). */
  protected override describe(request: RecordedHttpRequest): RecordedRequest {
    return { ...request, path: decodeURIComponent(request.path) };
  }

  protected override failureBody(): unknown {
    return { error: { code: "", message: "Service unavailable" } };
  }

  protected override respond(request: RecordedRequest): [number, unknown] {
    if (request.headers["api-key"] !== "test-key") return [403, { error: { code: "", message: "Authentication failed" } }];
    return this.route(request.method, request.path, request.body);
  }

  protected override respondToError(err: unknown): ScriptedResponse {
    return { status: 400, body: { error: { code: "InvalidRequestParameter", message: (err as Error).message } } };
  }

  private route(method: string, path: string, body: any): [number, unknown] {
    if (path === "/indexes" && method === "POST") {
      if (this.indexes.has(body.name)) return [409, { error: { code: "ResourceNameAlreadyInUse", message: `Cannot create index '${body.name}' because it already exists.` } }];
      this.indexes.set(body.name, { definition: { "@odata.etag": '"0x1"', ...body }, docs: new Map() });
      return [201, { "@odata.context": "https://x/$metadata#indexes/$entity", "@odata.etag": '"0x1"', ...body }];
    }
    const m = /^\/indexes\('([^']+)'\)(.*)$/.exec(path);
    if (m === null) return [404, { error: { code: "", message: `no route ${path}` } }];
    const index = this.indexes.get(m[1]);
    if (index === undefined) return [404, { error: { code: "", message: `The index '${m[1]}' for service 'fake' was not found.` } }];
    const rest = m[2];
    if (rest === "" && method === "GET") return [200, index.definition];
    const doc = /^\/docs\('(.*)'\)$/.exec(rest);
    if (doc !== null && method === "GET") {
      const d = index.docs.get(doc[1].replace(/''/g, "'"));
      return d === undefined ? [404, undefined] : [200, d];
    }
    if (rest === "/docs/search.index" && method === "POST") return this.indexDocs(index, body.value);
    if (rest === "/docs/search.post.search" && method === "POST") return [200, this.search(index, body)];
    return [404, { error: { code: "", message: `no route ${method} ${path}` } }];
  }

  private indexDocs(index: Index, actions: any[]): [number, unknown] {
    const dims = index.definition.fields.find((f: any) => f.name === "vector")?.dimensions;
    for (const a of actions) {
      if (a.vector !== undefined && a.vector.length !== dims) {
        throw new Error(`The request is invalid. Details: The vector field 'vector', with dimension of '${dims}', expects a length of '${dims}'. However, the provided vector has a length of '${a.vector.length}'. Please ensure that the vector length matches the dimension of the field.`);
      }
    }
    const forced = this.itemStatusNext;
    this.itemStatusNext = undefined;
    const value = actions.map((a) => {
      const { "@search.action": action, ...fields } = a;
      if (forced !== undefined) return { key: fields.id, status: false, errorMessage: "Service is too busy to process the document. Please try again later.", statusCode: forced };
      if (action === "delete") {
        index.docs.delete(fields.id);
        return { key: fields.id, status: true, errorMessage: null, statusCode: 200 };
      }
      const existed = index.docs.has(fields.id);
      index.docs.set(fields.id, fields);
      return { key: fields.id, status: true, errorMessage: null, statusCode: existed ? 200 : 201 };
    });
    return [value.some((v) => !v.status) ? 207 : 200, { value }];
  }

  private search(index: Index, q: any): unknown {
    let docs = [...index.docs.values()].filter((d) => q.filter === undefined || evalFilter(parseFilter(q.filter), d));
    let scored: Array<{ d: any; score: number }>;
    const vq = q.vectorQueries?.[0];
    const text = q.search !== undefined && q.search !== "*" ? bm25Rank(docs, q.search, (d) => String(d.text ?? "")).map(({ item, score }) => ({ d: item, score })) : undefined;
    const vec = vq === undefined ? undefined : docs.filter((d) => Array.isArray(d.vector)).map((d) => ({ d, score: 1 / (1 + (1 - cosineSimilarity(d.vector, vq.vector))) })).sort((a, b) => b.score - a.score).slice(0, vq.k);
    if (text !== undefined && vec !== undefined) {
      const fused = new Map<string, { d: any; score: number }>();
      for (const list of [text, vec]) list.forEach((r, rank) => {
        const e = fused.get(r.d.id) ?? { d: r.d, score: 0 };
        e.score += 1 / (60 + rank + 1);
        fused.set(r.d.id, e);
      });
      scored = [...fused.values()].sort((a, b) => b.score - a.score);
    } else scored = text ?? vec ?? docs.map((d) => ({ d, score: 1 }));
    if (q.orderby === "id asc") scored.sort((a, b) => (a.d.id < b.d.id ? -1 : a.d.id > b.d.id ? 1 : 0));
    const page = scored.slice(0, q.top ?? 50);
    const select: string[] | undefined = q.select?.split(",");
    const value = page.map(({ d, score }) => ({ "@search.score": score, ...Object.fromEntries(Object.entries(d).filter(([k]) => k !== "vector" && (select === undefined || select.includes(k)))) }));
    docs = [];
    return { ...(q.count ? { "@odata.count": scored.length } : {}), value };
  }
}

type Filter = { op: "and" | "or"; left: Filter; right: Filter } | { op: "eq" | "gt"; field: string; value: string } | { op: "in"; field: string; values: string[] };

/** Parses the OData subset the store emits: eq / gt on strings, and / or, parentheses, search.in. */
export function parseFilter(src: string): Filter {
  const tokens = src.match(/'(?:[^']|'')*'|\(|\)|,|[A-Za-z_.]+/g) ?? [];
  let i = 0;
  const str = (t: string): string => t.slice(1, -1).replace(/''/g, "'");
  const primary = (): Filter => {
    const t = tokens[i++];
    if (t === "(") {
      const e = expr();
      i++; // )
      return e;
    }
    if (t === "search.in") {
      i++; // (
      const field = tokens[i++];
      i++; // ,
      const list = str(tokens[i++]);
      i++; // ,
      const delim = str(tokens[i++]);
      i++; // )
      return { op: "in", field, values: list.split(delim) };
    }
    const op = tokens[i++] as "eq" | "gt";
    return { op, field: t, value: str(tokens[i++]) };
  };
  const expr = (): Filter => {
    let left = primary();
    while (tokens[i] === "and" || tokens[i] === "or") {
      const op = tokens[i++] as "and" | "or";
      left = { op, left, right: primary() };
    }
    return left;
  };
  return expr();
}

function evalFilter(f: Filter, d: any): boolean {
  switch (f.op) {
    case "and":
      return evalFilter(f.left, d) && evalFilter(f.right, d);
    case "or":
      return evalFilter(f.left, d) || evalFilter(f.right, d);
    case "eq":
      return d[f.field] === f.value;
    case "gt":
      return typeof d[f.field] === "string" && d[f.field] > f.value;
    case "in":
      return f.values.includes(d[f.field]);
  }
}
