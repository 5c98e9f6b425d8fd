/* eslint-disable @typescript-eslint/no-explicit-any -- a wire stand-in: command documents are arbitrary BSON, checked by the tests */
// A small in-memory stand-in for a MongoDB Atlas deployment, speaking the MongoDB wire protocol over TCP: the
// legacy OP_QUERY handshake (answered with OP_REPLY) and OP_MSG commands with document sequences, BSON-encoded.
// It answers what the adapter sends: hello, ping, endSessions, create, insert / update (replacement, $set,
// $setOnInsert, upsert) / delete, find (filter on equality and $in, exclusion projection, _id sort, limit),
// createSearchIndexes and aggregate with $listSearchIndexes, $vectorSearch (cosine, score (1 + cos) / 2),
// $search (text, compound + in filter; BM25), $rankFusion (weighted RRF, rank constant 60), $match, $group
// count, $skip, $limit, $project with $meta scores. Every command is recorded. Not a MongoDB: it follows the
// documented message formats and command shapes, nothing more.
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { BSON, Long, type Document } from "bson";
import { bm25Rank, cosineSimilarity } from "@hierdoc/core/testing";

/** One command the stand-in received. */
export interface RecordedCommand {
  /** Command name (first key), e.g. `aggregate`, `update`, `hello`. */
  command: string;
  /** `$db` of the command. */
  db: string;
  /** The command document, with OP_MSG document sequences merged in (`documents`, `updates`, `deletes`). */
  body: Document;
}

interface SearchIndex {
  id: string;
  name: string;
  type: "search" | "vectorSearch";
  latestDefinition: Document;
}
interface Collection {
  docs: Map<string, Document>;
  searchIndexes: SearchIndex[];
}
type Row = Document & { __score?: number };

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
/** MongoDB 8.0 ($rankFusion needs 8.0+). */
const MAX_WIRE_VERSION = 25;
const RRF_RANK_CONSTANT = 60;

class CommandError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly codeName: string,
  ) {
    super(message);
  }
}

/**
 * A MongoDB wire-protocol server on 127.0.0.1 (free port) holding databases in memory, for wire tests and the
 * CLI's end-to-end store check. `url` is a `mongodb://…/?directConnection=true` connection string once started.
 */
export class FakeMongo {
  /** Every command received since the last {@link reset}, in order (handshakes and heartbeats included). */
  readonly commands: RecordedCommand[] = [];
  /** Collections by namespace (`db.collection`). */
  readonly collections = new Map<string, Collection>();
  /** Connection string once started. */
  url = "";
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private connectionId = 0;

  /** Starts listening; returns {@link url}. */
  async start(): Promise<string> {
    const server = createServer((socket) => this.serve(socket));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `mongodb://127.0.0.1:${(server.address() as AddressInfo).port}/?directConnection=true`;
    return this.url;
  }

  /** Drops open connections and stops listening. */
  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (s !== undefined) await new Promise((resolve) => s.close(resolve));
  }

  /** Forgets recorded commands; the data stays. */
  reset(): void {
    this.commands.length = 0;
  }

  /** Recorded commands named `name` other than handshakes. */
  find(name: string): RecordedCommand[] {
    return this.commands.filter((c) => c.command === name);
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    const id = ++this.connectionId;
    let pending = Buffer.alloc(0);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        const reply = this.handleMessage(message, id);
        if (reply !== undefined) socket.write(reply);
      }
    });
  }

  private handleMessage(message: Buffer, connectionId: number): Buffer | undefined {
    const requestId = message.readInt32LE(4);
    const opCode = message.readInt32LE(12);
    if (opCode === OP_QUERY) {
      let at = 20;
      at = message.indexOf(0, at) + 1 + 8; // fullCollectionName, numberToSkip, numberToReturn
      const query = BSON.deserialize(message.subarray(at, at + message.readInt32LE(at)));
      const command = query.$query ?? query;
      return opReply(requestId, this.run(command, "admin", connectionId));
    }
    if (opCode !== OP_MSG) return undefined;
    const flags = message.readUInt32LE(16);
    const end = message.length - (flags & 1 ? 4 : 0);
    let at = 20;
    let body: Document = {};
    const sequences: Record<string, Document[]> = {};
    while (at < end) {
      const kind = message[at++];
      if (kind === 0) {
        const size = message.readInt32LE(at);
        body = BSON.deserialize(message.subarray(at, at + size));
        at += size;
      } else {
        const size = message.readInt32LE(at);
        const stop = at + size;
        const nameEnd = message.indexOf(0, at + 4);
        const name = message.toString("utf8", at + 4, nameEnd);
        const docs: Document[] = [];
        for (let p = nameEnd + 1; p < stop; p += message.readInt32LE(p)) docs.push(BSON.deserialize(message.subarray(p, p + message.readInt32LE(p))));
        sequences[name] = docs;
        at = stop;
      }
    }
    const reply = this.run({ ...body, ...sequences }, String(body.$db ?? "admin"), connectionId);
    return flags & 2 ? undefined : opMsg(requestId, reply);
  }

  private run(body: Document, db: string, connectionId: number): Document {
    const command = Object.keys(body)[0] ?? "";
    this.commands.push({ command, db, body });
    try {
      return { ...this.dispatch(command, body, db, connectionId), ok: 1 };
    } catch (err) {
      const e = err instanceof CommandError ? err : new CommandError(String((err as Error).message), 1, "InternalError");
      return { ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName };
    }
  }

  private dispatch(command: string, body: Document, db: string, connectionId: number): Document {
    const ns = `${db}.${String(body[command])}`;
    switch (command.toLowerCase()) {
      case "hello":
      case "ismaster":
        return {
          helloOk: true,
          ismaster: true,
          isWritablePrimary: true,
          maxBsonObjectSize: 16 * 1024 * 1024,
          maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000,
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId,
          minWireVersion: 0,
          maxWireVersion: MAX_WIRE_VERSION,
          readOnly: false,
        };
      case "ping":
      case "endsessions":
        return {};
      case "buildinfo":
        return { version: "8.0.4", versionArray: [8, 0, 4, 0] };
      case "create":
        if (this.collections.has(ns)) throw new CommandError(`Collection ${ns} already exists.`, 48, "NamespaceExists");
        this.collection(ns);
        return {};
      case "insert":
        for (const doc of body.documents ?? []) this.collection(ns).docs.set(String(doc._id), doc);
        return { n: (body.documents ?? []).length };
      case "update":
        return this.update(ns, body.updates ?? []);
      case "delete": {
        let n = 0;
        const col = this.collection(ns);
        for (const d of body.deletes ?? []) {
          for (const doc of [...col.docs.values()].filter((x) => matches(x, d.q))) {
            col.docs.delete(String(doc._id));
            n++;
            if (d.limit === 1) break;
          }
        }
        return { n };
      }
      case "find": {
        let rows = [...this.collection(ns).docs.values()].filter((d) => matches(d, body.filter ?? {}));
        if (body.sort?._id !== undefined) rows.sort((a, b) => (String(a._id) < String(b._id) ? -1 : 1) * Math.sign(body.sort._id));
        if (typeof body.limit === "number" && body.limit > 0) rows = rows.slice(0, body.limit);
        return cursor(ns, rows.map((r) => project(r, body.projection)));
      }
      case "getmore":
        return { cursor: { nextBatch: [], id: Long.ZERO, ns } };
      case "killcursors":
        return { cursorsKilled: body.cursors ?? [] };
      case "createsearchindexes": {
        const col = this.collection(ns);
        const created = (body.indexes ?? []).map((i: Document) => {
          const index: SearchIndex = { id: `${col.searchIndexes.length + 1}`.padStart(24, "0"), name: i.name ?? "default", type: i.type ?? "search", latestDefinition: i.definition };
          col.searchIndexes.push(index);
          return { id: index.id, name: index.name };
        });
        return { indexesCreated: created };
      }
      case "aggregate":
        return cursor(ns, this.aggregate(this.collection(ns), body.pipeline ?? []).map(({ __score: _, ...r }) => r));
      default:
        throw new CommandError(`no such command: '${command}'`, 59, "CommandNotFound");
    }
  }

  private collection(ns: string): Collection {
    let col = this.collections.get(ns);
    if (col === undefined) this.collections.set(ns, (col = { docs: new Map(), searchIndexes: [] }));
    return col;
  }

  private update(ns: string, updates: Document[]): Document {
    const col = this.collection(ns);
    let n = 0;
    let nModified = 0;
    const upserted: Document[] = [];
    updates.forEach((u, index) => {
      const found = [...col.docs.values()].filter((d) => matches(d, u.q));
      const operators = Object.keys(u.u).some((k) => k.startsWith("$"));
      if (found.length === 0) {
        if (!u.upsert) return;
        const base = Object.fromEntries(Object.entries(u.q).filter(([, v]) => typeof v !== "object" || v === null));
        const doc = operators ? { ...base, ...u.u.$setOnInsert, ...u.u.$set } : { ...u.u, _id: u.u._id ?? base._id };
        col.docs.set(String(doc._id), doc);
        n++;
        upserted.push({ index, _id: doc._id });
        return;
      }
      for (const doc of u.multi ? found : found.slice(0, 1)) {
        col.docs.set(String(doc._id), operators ? { ...doc, ...u.u.$set } : { ...u.u, _id: doc._id });
        n++;
        nModified++;
      }
    });
    return { n, nModified, ...(upserted.length > 0 ? { upserted } : {}) };
  }

  private aggregate(col: Collection, pipeline: Document[]): Row[] {
    let rows: Row[] = [...col.docs.values()];
    for (const stage of pipeline) {
      const [op, arg] = Object.entries(stage)[0] as [string, any];
      switch (op) {
        case "$listSearchIndexes":
          rows = col.searchIndexes.map((i) => ({ ...i, status: "READY", queryable: true }));
          break;
        case "$vectorSearch":
          rows = this.vectorSearch(col, arg);
          break;
        case "$search":
          rows = this.textSearch(col, arg);
          break;
        case "$rankFusion":
          rows = this.rankFusion(col, arg);
          break;
        case "$match":
          rows = rows.filter((r) => matches(r, arg));
          break;
        case "$skip":
          rows = rows.slice(arg);
          break;
        case "$limit":
          rows = rows.slice(0, arg);
          break;
        case "$group":
          rows = rows.length === 0 ? [] : [{ _id: arg._id, ...Object.fromEntries(Object.keys(arg).filter((k) => k !== "_id").map((k) => [k, rows.length])) }];
          break;
        case "$project":
          rows = rows.map((r) => project(r, arg));
          break;
        default:
          throw new CommandError(`Unrecognized pipeline stage name: '${op}'`, 40324, "Location40324");
      }
    }
    return rows;
  }

  private searchIndex(col: Collection, name: string, type: SearchIndex["type"]): SearchIndex {
    const index = col.searchIndexes.find((i) => i.name === name && i.type === type);
    if (index === undefined) throw new CommandError(`${type} index '${name}' not found`, 8, "UnknownError");
    return index;
  }

  private vectorSearch(col: Collection, arg: any): Row[] {
    const index = this.searchIndex(col, arg.index, "vectorSearch");
    const dims = index.latestDefinition.fields?.find((f: Document) => f.type === "vector")?.numDimensions;
    if (arg.queryVector.length !== dims) {
      throw new CommandError(`PlanExecutor error during aggregation :: caused by :: vector field is indexed with ${dims} dimensions but queried with ${arg.queryVector.length}`, 8, "UnknownError");
    }
    return [...col.docs.values()]
      .filter((d) => arg.filter === undefined || matches(d, arg.filter))
      .map((d) => ({ ...d, __score: (1 + cosineSimilarity(d[arg.path], arg.queryVector)) / 2 }))
      .sort((a, b) => b.__score - a.__score)
      .slice(0, arg.limit);
  }

  private textSearch(col: Collection, arg: any): Row[] {
    this.searchIndex(col, arg.index, "search");
    const text = arg.text ?? arg.compound?.must?.[0]?.text;
    const inFilter = arg.compound?.filter?.[0]?.in;
    const docs = [...col.docs.values()].filter((d) => inFilter === undefined || inFilter.value.includes(d[inFilter.path]));
    return bm25Rank(docs, String(text.query), (d) => String(d[text.path] ?? "")).map(({ item, score }) => ({ ...item, __score: score }));
  }

  private rankFusion(col: Collection, arg: any): Row[] {
    const fused = new Map<string, Row>();
    for (const [name, stages] of Object.entries(arg.input.pipelines as Record<string, Document[]>)) {
      const weight = arg.combination?.weights?.[name] ?? 1;
      this.aggregate(col, stages).forEach((row, i) => {
        const key = String(row._id);
        const prev = fused.get(key);
        fused.set(key, { ...row, __score: (prev?.__score ?? 0) + weight / (RRF_RANK_CONSTANT + i + 1) });
      });
    }
    return [...fused.values()].sort((a, b) => b.__score! - a.__score!);
  }
}

function matches(doc: Document, filter: Document): boolean {
  return Object.entries(filter ?? {}).every(([key, cond]) => {
    if (cond !== null && typeof cond === "object" && !Array.isArray(cond) && "$in" in cond) return (cond.$in as unknown[]).includes(doc[key]);
    return doc[key] === cond;
  });
}

function project(row: Row, projection: Document | undefined): Row {
  if (projection === undefined) return row;
  const entries = Object.entries(projection);
  if (entries.every(([, v]) => v === 0 || v === false)) {
    const out = { ...row };
    for (const [k] of entries) delete out[k];
    return out;
  }
  const out: Row = {};
  for (const [k, v] of entries) {
    if (v !== null && typeof v === "object" && "$meta" in v) out[k] = row.__score ?? 0;
    else if (v) out[k] = row[k];
  }
  return out;
}

function cursor(ns: string, firstBatch: Document[]): Document {
  return { cursor: { firstBatch, id: Long.ZERO, ns } };
}

function header(length: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(Math.floor(Math.random() * 0x7fffffff), 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

function opMsg(responseTo: number, doc: Document): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const flags = Buffer.alloc(5); // flagBits 0, section kind 0
  return Buffer.concat([header(16 + 5 + body.length, responseTo, OP_MSG), flags, body]);
}

function opReply(responseTo: number, doc: Document): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const fields = Buffer.alloc(20); // responseFlags, cursorID (int64), startingFrom, numberReturned
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + 20 + body.length, responseTo, OP_REPLY), fields, body]);
}
