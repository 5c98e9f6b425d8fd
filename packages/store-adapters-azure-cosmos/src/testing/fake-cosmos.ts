/* eslint-disable @typescript-eslint/no-explicit-any -- a wire stand-in: request bodies are arbitrary JSON, checked by the tests */
// A local stand-in for the Azure Cosmos DB for NoSQL REST API (gateway mode), enough for @azure/cosmos:
// database account (GET /), databases and containers (read, create), partition key ranges, documents
// (upsert, read, delete) and queries (POST …/docs with x-ms-documentdb-isquery): queries the gateway cannot
// serve directly (TOP, ORDER BY, aggregates) get the 400 "first chance" answer and a query plan
// (x-ms-cosmos-is-query-plan-request), and the SDK's rewritten per-partition queries are executed (see
// cosmos-sql.ts). Every request is recorded and its master-key signature checked. Not a Cosmos DB: it
// follows the documented request and response shapes, nothing more.
import { createHmac, randomBytes } from "node:crypto";
import { RecordingHttpServer, type RecordedHttpRequest, type ScriptedResponse } from "@hierdoc/core/testing";
import { QueryError, evaluate, hasAggregate, parseSelect, type EvalContext, type SelectStatement } from "./cosmos-sql.js";
import { needsPlan, queryPlan } from "./query-plan.js";

/** A request the fake received, with the names decoded. */
export type CosmosRequest = RecordedHttpRequest;

/** One container: its definition as created, and its documents by partition key and id. */
export interface FakeContainer {
  definition: Record<string, any>;
  docs: Map<string, any>;
}

const PARTITION_RANGE = { id: "0", minInclusive: "", maxExclusive: "FF", ridPrefix: 0, throughputFraction: 1, status: "online", parents: [] };

function rid(): string {
  return randomBytes(8).toString("base64").replace(/\//g, "-");
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** A Cosmos error body: `{ code, message }` as the service sends it. */
function failure(status: number, code: string, message: string, extra: Record<string, unknown> = {}): [number, unknown] {
  return [status, { code, message: `Message: {"Errors":["${message}"]}\r\nActivityId: 00000000-0000-0000-0000-000000000000`, ...extra }];
}

/**
 * A local HTTP server speaking the Cosmos DB NoSQL REST wire format for `@azure/cosmos` (gateway mode, one
 * partition key range per container). `key` is the base64 master key it checks signatures with.
 */
export class FakeCosmos extends RecordingHttpServer<CosmosRequest> {
  /** Databases by id, each with its containers by id. */
  readonly databases = new Map<string, Map<string, FakeContainer>>();
  /** Full-text statistics each hybrid component query carried (checked against the container's own). */
  readonly statistics: Array<{ terms: string[]; documentCount: number; totalWordCount: number; hitCounts: number[] }> = [];
  /** The base64 master key request signatures are checked with. */
  readonly key: string;

  constructor(key = randomBytes(64).toString("base64")) {
    super();
    this.key = key;
  }

  /** Recorded requests whose `x-ms-documentdb-isquery` or query-plan header is set, with their SQL. */
  queries(): Array<{ sql: string; plan: boolean; range?: string; body: any }> {
    return this.requests
      .filter((r) => r.headers["x-ms-documentdb-isquery"] !== undefined || r.headers["x-ms-cosmos-is-query-plan-request"] !== undefined)
      .map((r) => ({ sql: String(r.body?.query ?? ""), plan: r.headers["x-ms-cosmos-is-query-plan-request"] !== undefined, range: r.headers["x-ms-documentdb-partitionkeyrangeid"] as string | undefined, body: r.body }));
  }

  protected override failureBody(status: number): unknown {
    return failure(status, status === 429 ? "TooManyRequests" : "ServiceUnavailable", status === 429 ? "Request rate is large" : "Service is currently unavailable")[1];
  }

  protected override respondToError(err: unknown): ScriptedResponse {
    if (err instanceof QueryError) {
      const [status, body] = failure(400, "BadRequest", err.message);
      return { status, body };
    }
    const [status, body] = failure(500, "InternalServerError", String(err));
    return { status, body };
  }

  protected override parseBody(text: string): unknown {
    return text === "" ? undefined : JSON.parse(text);
  }

  protected override respond(r: CosmosRequest): [number, unknown] {
    const segments = r.path.split("/").filter(Boolean).map(decodeURIComponent);
    const auth = this.checkSignature(r, segments);
    if (auth !== undefined) return auth;
    if (segments.length === 0 && r.method === "GET") return [200, this.account()];
    if (segments[0] !== "dbs") return failure(404, "NotFound", `Unknown resource ${r.path}`);
    if (segments.length === 1 && r.method === "POST") {
      if (this.databases.has(r.body.id)) return failure(409, "Conflict", "Entity with the specified id already exists in the system.");
      this.databases.set(r.body.id, new Map());
      return [201, this.resource({ id: r.body.id, _colls: "colls/", _users: "users/" })];
    }
    const db = this.databases.get(segments[1]);
    if (db === undefined) return failure(404, "NotFound", "Resource Not Found. Learn more: https://aka.ms/cosmosdb-tsg-not-found");
    if (segments.length === 2 && r.method === "GET") return [200, this.resource({ id: segments[1], _colls: "colls/", _users: "users/" })];
    if (segments.length === 3 && r.method === "POST") {
      if (db.has(r.body.id)) return failure(409, "Conflict", "Entity with the specified id already exists in the system.");
      const dims = r.body.vectorEmbeddingPolicy?.vectorEmbeddings?.[0]?.dimensions;
      if (dims !== undefined && !(Number.isInteger(dims) && dims > 0 && dims <= 4096)) return failure(400, "BadRequest", `Vector dimensions ${dims} must be between 1 and 4096`);
      const definition = this.resource({ ...r.body, _docs: "docs/", _sprocs: "sprocs/", _triggers: "triggers/", _udfs: "udfs/", _conflicts: "conflicts/", conflictResolutionPolicy: { mode: "LastWriterWins", conflictResolutionPath: "/_ts", conflictResolutionProcedure: "" }, geospatialConfig: { type: "Geography" } });
      db.set(r.body.id, { definition, docs: new Map() });
      return [201, definition];
    }
    const container = db.get(segments[3]);
    if (container === undefined) return failure(404, "NotFound", "Resource Not Found. Learn more: https://aka.ms/cosmosdb-tsg-not-found");
    if (segments.length === 4 && r.method === "GET") return [200, container.definition];
    if (segments.length === 4 && r.method === "DELETE") {
      db.delete(segments[3]);
      return [204, undefined];
    }
    if (segments[4] === "pkranges") return [200, { _rid: container.definition._rid, PartitionKeyRanges: [{ ...PARTITION_RANGE, _rid: container.definition._rid, _self: "", _etag: '"0"', _ts: now() }], _count: 1 }];
    if (segments[4] !== "docs") return failure(404, "NotFound", `Unknown resource ${r.path}`);
    if (segments.length === 5 && r.method === "POST") {
      if (r.headers["x-ms-cosmos-is-query-plan-request"] !== undefined) return [200, queryPlan(parseSelect(r.body.query))];
      if (r.headers["x-ms-documentdb-isquery"] !== undefined) return this.query(container, r);
      return this.upsert(container, r);
    }
    const pk = this.partitionKey(r);
    const key = `${pk}\u0000${segments[5]}`;
    if (segments.length === 6 && r.method === "GET") {
      const doc = container.docs.get(key);
      return doc === undefined ? failure(404, "NotFound", "Entity with the specified id does not exist in the system.") : [200, doc];
    }
    if (segments.length === 6 && r.method === "DELETE") {
      if (!container.docs.delete(key)) return failure(404, "NotFound", "Entity with the specified id does not exist in the system.");
      return [204, undefined];
    }
    return failure(405, "MethodNotAllowed", `${r.method} ${r.path}`);
  }

  private account(): Record<string, unknown> {
    const location = { name: "Local", databaseAccountEndpoint: `${this.url}/` };
    return {
      _self: "",
      id: "hierdoc-fake",
      _rid: "hierdoc-fake.documents.azure.com",
      media: "//media/",
      addresses: "//addresses/",
      _dbs: "//dbs/",
      writableLocations: [location],
      readableLocations: [location],
      enableMultipleWriteLocations: false,
      continuousBackupEnabled: false,
      enableNRegionSynchronousCommit: false,
      userReplicationPolicy: { asyncReplication: false, minReplicaSetSize: 1, maxReplicasetSize: 4 },
      userConsistencyPolicy: { defaultConsistencyLevel: "Session" },
      systemReplicationPolicy: { minReplicaSetSize: 1, maxReplicasetSize: 4 },
      readPolicy: { primaryReadCoefficient: 1, secondaryReadCoefficient: 1 },
      queryEngineConfiguration: JSON.stringify({ maxSqlQueryInputLength: 262144, maxJoinsPerSqlQuery: 5, maxQueryRequestTimeoutFraction: 0.9, sqlAllowNonFiniteNumbers: false, sqlAllowAggregateFunctions: true, sqlAllowSubQuery: true, sqlAllowScalarSubQuery: true, allowNewKeywords: true, sqlAllowLike: true, sqlAllowGroupByClause: true, maxSpatialQueryCells: 12, spatialMaxGeometryPointCount: 256, sqlDisableOptimizationFlags: 0, sqlAllowTop: true, enableSpatialIndexing: true }),
    };
  }

  private resource(body: Record<string, unknown>): Record<string, unknown> {
    const id = rid();
    return { ...body, _rid: id, _self: `dbs/${id}/`, _etag: `"${rid()}"`, _ts: now() };
  }

  /** The document's partition key value from the `x-ms-documentdb-partitionkey` header (`["value"]`). */
  private partitionKey(r: CosmosRequest): string {
    const raw = r.headers["x-ms-documentdb-partitionkey"];
    if (raw === undefined) throw new QueryError("PartitionKey value must be supplied for this operation.");
    return String(JSON.parse(String(raw))[0]);
  }

  private upsert(container: FakeContainer, r: CosmosRequest): [number, unknown] {
    if (String(r.headers["x-ms-documentdb-is-upsert"]).toLowerCase() !== "true") throw new QueryError("the fake supports document upserts only");
    const doc = r.body;
    if (typeof doc?.id !== "string" || doc.id === "" || /[/\\?#]/.test(doc.id)) return failure(400, "BadRequest", "The input name is invalid. Ensure to provide a unique non-empty string less than '255' characters.");
    const path = container.definition.partitionKey.paths[0].slice(1);
    const pk = this.partitionKey(r);
    if (String(doc[path]) !== pk) return failure(400, "BadRequest", "PartitionKey extracted from document doesn't match the one specified in the header.");
    const vectorPolicy = container.definition.vectorEmbeddingPolicy?.vectorEmbeddings?.[0];
    const v = vectorPolicy === undefined ? undefined : doc[vectorPolicy.path.slice(1)];
    if (Array.isArray(v) && v.length !== vectorPolicy.dimensions) {
      return failure(400, "BadRequest", `The vector at path '${vectorPolicy.path}' has ${v.length} dimensions, but the vector embedding policy specifies ${vectorPolicy.dimensions} dimensions.`);
    }
    const key = `${pk}\u0000${doc.id}`;
    const existed = container.docs.has(key);
    const stored = { ...doc, _rid: container.docs.get(key)?._rid ?? rid(), _self: "", _etag: `"${rid()}"`, _attachments: "attachments/", _ts: now() };
    container.docs.set(key, stored);
    return [existed ? 200 : 201, stored];
  }

  private query(container: FakeContainer, r: CosmosRequest): [number, unknown] {
    if (!String(r.headers["content-type"]).startsWith("application/query+json")) throw new QueryError("query requests need content-type application/query+json");
    const st = parseSelect(r.body.query);
    const range = r.headers["x-ms-documentdb-partitionkeyrangeid"];
    const pkHeader = r.headers["x-ms-documentdb-partitionkey"];
    if (range === undefined && pkHeader === undefined && needsPlan(st)) {
      return failure(400, "BadRequest", "The provided cross partition query can not be directly served by the gateway. This is a first chance (internal) exception that all newer clients will know how to handle gracefully.", {
        additionalErrorInfo: JSON.stringify(queryPlan(st)),
      });
    }
    const params = new Map<string, unknown>((r.body.parameters ?? []).map((p: { name: string; value: unknown }) => [p.name, p.value]));
    const corpus = [...container.docs.values()];
    const seen = new Set<string>();
    const onStatistics: EvalContext["onStatistics"] = (terms, documentCount, totalWordCount, hitCounts) => {
      const entry = { terms, documentCount, totalWordCount, hitCounts };
      if (!seen.has(JSON.stringify(entry))) this.statistics.push(entry);
      seen.add(JSON.stringify(entry));
    };
    const ctx: EvalContext = { params, corpus, onStatistics };
    const inScope = pkHeader === undefined ? corpus : corpus.filter((d) => JSON.stringify([d[container.definition.partitionKey.paths[0].slice(1)]]) === pkHeader);
    const rows = execute(st, inScope, ctx);
    const pageSize = Number(r.headers["x-ms-max-item-count"] ?? 100);
    const start = Number(r.headers["x-ms-continuation"] ?? 0);
    const size = pageSize > 0 ? pageSize : rows.length;
    const page = rows.slice(start, start + size);
    this.nextHeaders = start + size < rows.length ? { "x-ms-continuation": String(start + size) } : {};
    return [200, { _rid: container.definition._rid, Documents: page, _count: page.length }];
  }

  /** Extra headers of the answer being built (the continuation of a paged query); read and cleared by headersFor. */
  private nextHeaders: Record<string, string> = {};

  protected override headersFor(): Record<string, string> {
    const extra = this.nextHeaders;
    this.nextHeaders = {};
    return { "x-ms-request-charge": "1.0", "x-ms-activity-id": "00000000-0000-0000-0000-000000000000", "x-ms-session-token": "0:1#1", ...extra };
  }

  /** Checks the `authorization` header: `type=master&ver=1.0&sig=` HMAC-SHA256 of verb, resource type, resource link and date. */
  private checkSignature(r: CosmosRequest, segments: string[]): [number, unknown] | undefined {
    const header = decodeURIComponent(String(r.headers.authorization ?? ""));
    const sig = /^type=master&ver=1\.0&sig=(.+)$/.exec(header)?.[1];
    const date = String(r.headers["x-ms-date"] ?? "");
    const even = segments.length % 2 === 0;
    const type = segments.length === 0 ? "" : even ? segments[segments.length - 2] : segments[segments.length - 1];
    const link = (even ? segments : segments.slice(0, -1)).join("/");
    const text = `${r.method.toLowerCase()}\n${type.toLowerCase()}\n${link}\n${date.toLowerCase()}\n\n`;
    const want = createHmac("sha256", Buffer.from(this.key, "base64")).update(text).digest("base64");
    if (sig === want) return undefined;
    return failure(401, "Unauthorized", "The input authorization token can't serve the request. The wrong key is being used or the expected payload is not built as per the protocol.");
  }
}

/** Runs a parsed statement over `docs`: filter, aggregate or order, TOP, projection. */
export function execute(st: SelectStatement, docs: any[], ctx: EvalContext): unknown[] {
  const matching = st.where === undefined ? docs : docs.filter((d) => evaluate(st.where!, d, ctx) === true);
  if (st.items.some((i) => hasAggregate(i.expr))) {
    return [project(st, matching[0] ?? {}, ctx, matching)];
  }
  let ordered = matching;
  const ob = st.orderBy;
  if (ob !== undefined) {
    if (ob.rank) throw new QueryError("ORDER BY RANK cannot be served by the gateway directly; the SDK must run the query plan");
    const keyed = matching.map((d) => ({ d, k: evaluate(ob.expr, d, ctx) })).filter((x) => x.k !== undefined);
    const desc = ob.desc ?? /^VectorDistance/i.test(ob.source);
    keyed.sort((a, b) => (desc ? Number(b.k) - Number(a.k) : Number(a.k) - Number(b.k)));
    ordered = keyed.map((x) => x.d);
  }
  if (st.top !== undefined) ordered = ordered.slice(0, st.top);
  return ordered.map((d) => project(st, d, ctx));
}

function project(st: SelectStatement, doc: any, ctx: EvalContext, docs?: any[]): unknown {
  if (st.value) return evaluate(st.items[0].expr, doc, ctx, docs);
  if (st.items.length === 1 && st.items[0].expr.t === "star") return doc;
  const row: Record<string, unknown> = {};
  for (const { expr, alias, source } of st.items) {
    const key = alias ?? (expr.t === "path" ? expr.parts.at(-1) : `$${source}`);
    const v = evaluate(expr, doc, ctx, docs);
    if (v !== undefined && key !== undefined) row[key] = v;
  }
  return row;
}
