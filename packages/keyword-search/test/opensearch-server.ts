import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the fake OpenSearch node received. */
export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

/**
 * A small node:http server speaking OpenSearch's REST wire format for the calls the provider makes
 * (HEAD/PUT/DELETE index, _bulk NDJSON, _search, _delete_by_query, _count), with in-memory documents.
 * Search scores documents by query-word occurrences, like a (much simpler) match query.
 */
export class FakeOpenSearch {
  readonly requests: Recorded[] = [];
  readonly indices = new Map<string, { body: unknown; docs: Map<string, { text: string; source_path: string }> }>();
  /** Optional override: return a status + body, or "hang" to never answer. */
  override?: (req: Recorded) => { status: number; body: unknown } | "hang" | undefined;
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://x");
        const rec: Recorded = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
        this.requests.push(rec);
        const forced = this.override?.(rec);
        if (forced === "hang") return;
        const { status, body } = forced ?? this.handle(rec);
        res.writeHead(status, { "content-type": "application/json" });
        res.end(rec.method === "HEAD" ? undefined : JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }

  private handle(rec: Recorded): { status: number; body: unknown } {
    const parts = rec.path.split("/").filter(Boolean);
    const notFound = (index: string) => ({
      status: 404,
      body: { error: { type: "index_not_found_exception", reason: `no such index [${index}]`, index }, status: 404 },
    });
    if (parts[0] === "_bulk") {
      const lines = rec.body.split("\n").filter(Boolean).map((l) => JSON.parse(l));
      const items: unknown[] = [];
      for (let i = 0; i < lines.length; i++) {
        const [action, meta] = Object.entries(lines[i])[0] as [string, { _index: string; _id: string }];
        const index = this.indices.get(meta._index);
        if (action === "index") {
          const doc = lines[++i];
          if (!index) {
            items.push({ index: { _index: meta._index, _id: meta._id, status: 404, error: { type: "index_not_found_exception", reason: "no such index" } } });
            continue;
          }
          const created = !index.docs.has(meta._id);
          index.docs.set(meta._id, doc);
          items.push({ index: { _index: meta._index, _id: meta._id, _version: 1, result: created ? "created" : "updated", status: created ? 201 : 200 } });
        } else if (action === "delete") {
          const found = index?.docs.delete(meta._id) ?? false;
          items.push({ delete: { _index: meta._index, _id: meta._id, result: found ? "deleted" : "not_found", status: found ? 200 : 404 } });
        }
      }
      const errors = items.some((it) => Object.values(it as Record<string, { error?: unknown; status: number }>)[0].error);
      return { status: 200, body: { took: 3, errors, items } };
    }
    const index = this.indices.get(parts[0]);
    if (parts.length === 1) {
      if (rec.method === "HEAD") return { status: index ? 200 : 404, body: {} };
      if (rec.method === "PUT") {
        if (index) return { status: 400, body: { error: { type: "resource_already_exists_exception", reason: "exists" }, status: 400 } };
        this.indices.set(parts[0], { body: JSON.parse(rec.body), docs: new Map() });
        return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: parts[0] } };
      }
      if (rec.method === "DELETE") {
        if (!index) return notFound(parts[0]);
        this.indices.delete(parts[0]);
        return { status: 200, body: { acknowledged: true } };
      }
    }
    if (!index) return notFound(parts[0]);
    if (parts[1] === "_count") return { status: 200, body: { count: index.docs.size, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } } };
    if (parts[1] === "_delete_by_query") {
      const q = JSON.parse(rec.body) as { query: { term: { source_path: string } } };
      let deleted = 0;
      for (const [id, d] of index.docs) if (d.source_path === q.query.term.source_path && index.docs.delete(id)) deleted++;
      return { status: 200, body: { took: 5, timed_out: false, total: deleted, deleted, failures: [] } };
    }
    if (parts[1] === "_search") {
      const q = JSON.parse(rec.body) as { size: number; query: { match?: { text: { query: string } }; bool?: { must: Array<{ match: { text: { query: string } } }>; filter: Array<{ ids: { values: string[] } }> } } };
      const text = (q.query.match ?? q.query.bool!.must[0].match).text.query.toLowerCase().split(/\W+/).filter(Boolean);
      const allow = q.query.bool ? new Set(q.query.bool.filter[0].ids.values) : null;
      const hits = [...index.docs]
        .filter(([id]) => !allow || allow.has(id))
        .map(([id, d]) => ({ id, score: text.reduce((s, w) => s + d.text.toLowerCase().split(/\W+/).filter((x) => x === w).length, 0) * 0.8765 }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, q.size);
      return {
        status: 200,
        body: {
          took: 2, timed_out: false, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
          hits: { total: { value: hits.length, relation: "eq" }, max_score: hits[0]?.score ?? null, hits: hits.map((h) => ({ _index: parts[0], _id: h.id, _score: h.score })) },
        },
      };
    }
    return { status: 400, body: { error: { type: "illegal_argument_exception", reason: `unsupported ${rec.method} ${rec.path}` }, status: 400 } };
  }
}
