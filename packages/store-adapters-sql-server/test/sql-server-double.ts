/* eslint-disable @typescript-eslint/no-explicit-any -- a test double: rows and parameters are arbitrary JSON */
// A stand-in for a SQL Server 2025 database behind the `mssql` ConnectionPool seam (connect / request().input()
// .query() / close). TDS (the wire protocol) is not HTTP and no TDS server runs here, so this double works one
// level up: it records every statement with its parameters and EXECUTES the statement shapes the adapter
// sends — it does not return canned answers. It keeps tables, a primary key, the VECTOR(n) column size, the
// source index, the full-text catalog and index; MERGE from OPENJSON, IN (OPENJSON), keyset TOP/ORDER BY,
// COUNT_BIG, VECTOR_DISTANCE('cosine') and CONTAINSTABLE / FREETEXTTABLE (BM25 from @hierdoc/core/testing as the
// engine's RANK), and answers unknown SQL, a missing full-text index or a wrong vector size with SQL Server's
// error numbers and messages. It is not SQL Server: the T-SQL path is verified only by the live test.
import { bm25Rank, cosineSimilarity, wordTokens } from "@hierdoc/core/testing";
import type { SqlPoolLike, SqlRequestLike } from "@hierdoc/store-adapters-sql-server";

interface Table {
  dimensions?: number;
  rows: Map<string, any>;
  indexes: Set<string>;
  fullText?: { column: string; catalog: string };
}

/** A SQL Server error as `mssql` raises it: a RequestError with the server's error number. */
export class FakeRequestError extends Error {
  override readonly name = "RequestError";
  readonly code = "EREQUEST";
  constructor(readonly number: number, message: string) {
    super(message);
  }
}

/** A statement the double received. */
export interface ExecutedStatement {
  sql: string;
  params: Record<string, unknown>;
}

const BRACKETED = /\[([A-Za-z0-9_]+)\]\.\[([A-Za-z0-9_]+)\]/;

export class SqlServerDouble {
  /** Tables by `schema.table`. */
  readonly tables = new Map<string, Table>();
  readonly catalogs = new Set<string>();
  /** Every statement, in order. */
  readonly statements: ExecutedStatement[] = [];
  /** Errors thrown (and removed) one per statement, before it runs. */
  failNext: Error[] = [];
  connects = 0;
  closes = 0;

  /** A pool factory for `SqlServerStore({ pool })`. */
  readonly factory = async (): Promise<SqlPoolLike> => ({
    connect: async () => {
      this.connects++;
      return undefined;
    },
    close: async () => {
      this.closes++;
    },
    request: () => this.request(),
  });

  private request(): SqlRequestLike {
    const params: Record<string, unknown> = {};
    const req: SqlRequestLike = {
      input: (name, value) => {
        params[name] = value;
        return req;
      },
      query: async <T>(sql: string) => {
        this.statements.push({ sql, params: { ...params } });
        const fail = this.failNext.shift();
        if (fail !== undefined) throw fail;
        return this.execute(sql, params) as { recordset: T[]; rowsAffected: number[] };
      },
    };
    return req;
  }

  private table(sql: string): [string, Table | undefined] {
    const m = BRACKETED.exec(sql);
    if (m === null) throw new FakeRequestError(102, `Incorrect syntax near '${sql.slice(0, 30)}'.`);
    const name = `${m[1]}.${m[2]}`;
    return [name, this.tables.get(name)];
  }

  private need(sql: string): Table {
    const [name, t] = this.table(sql);
    if (t === undefined) throw new FakeRequestError(208, `Invalid object name '${name}'.`);
    return t;
  }

  private execute(sql: string, p: Record<string, unknown>): { recordset: any[]; rowsAffected: number[] } {
    const one = (recordset: any[], affected = recordset.length) => ({ recordset, rowsAffected: [affected] });
    if (sql.startsWith("IF ")) return this.ddl(sql);
    if (/^SELECT name, value FROM /.test(sql)) return one([...this.need(sql).rows.values()]);
    if (/^INSERT INTO .* \(name, value\) VALUES \(@name, @value\);$/.test(sql)) {
      const t = this.need(sql);
      if (t.rows.has(String(p.name))) throw new FakeRequestError(2627, `Violation of PRIMARY KEY constraint. Cannot insert duplicate key. The duplicate key value is (${String(p.name)}).`);
      t.rows.set(String(p.name), { name: p.name, value: p.value });
      return one([], 1);
    }
    if (sql.startsWith("MERGE ")) return this.merge(sql, p);
    if (/^SELECT id, record FROM \S+ WHERE id IN \(SELECT value FROM OPENJSON\(@ids\)\);$/.test(sql)) {
      const t = this.need(sql);
      const ids = new Set(JSON.parse(String(p.ids)) as string[]);
      return one([...t.rows.values()].filter((r) => ids.has(r.id)).map((r) => ({ id: r.id, record: r.record })));
    }
    if (/^DELETE FROM \S+ WHERE id IN \(SELECT value FROM OPENJSON\(@ids\)\);$/.test(sql)) {
      const t = this.need(sql);
      const ids = JSON.parse(String(p.ids)) as string[];
      return one([], ids.filter((id) => t.rows.delete(id)).length);
    }
    if (/^DELETE FROM \S+ WHERE source_path = @source;$/.test(sql)) {
      const t = this.need(sql);
      const gone = [...t.rows.values()].filter((r) => r.source_path === p.source);
      for (const r of gone) t.rows.delete(r.id);
      return one([], gone.length);
    }
    if (/^SELECT COUNT_BIG\(\*\) AS n FROM \S+;$/.test(sql)) return one([{ n: String(this.need(sql).rows.size) }], 1);
    if (/^SELECT TOP \(@limit\) id, record FROM \S+ WHERE id > @after ORDER BY id;$/.test(sql)) {
      const rows = [...this.need(sql).rows.values()].filter((r) => r.id > String(p.after)).sort((a, b) => (a.id < b.id ? -1 : 1));
      return one(rows.slice(0, Number(p.limit)).map((r) => ({ id: r.id, record: r.record })));
    }
    if (/^SELECT TOP \(@k\) id, VECTOR_DISTANCE\('cosine', embedding, CAST\(@vector AS VECTOR\((\d+)\)\)\) AS distance FROM \S+(\nWHERE source_path IN \(SELECT value FROM OPENJSON\(@sources\)\))?\nORDER BY distance;$/.test(sql)) {
      return one(this.vectorSearch(sql, p));
    }
    if (/^SELECT TOP \(@k\) c\.id, ft\.\[RANK\] AS score FROM (CONTAINSTABLE|FREETEXTTABLE)\(\S+, indexed_text, @query\) AS ft\nJOIN \S+ AS c ON c\.id = ft\.\[KEY\](\nWHERE c\.source_path IN \(SELECT value FROM OPENJSON\(@sources\)\))?\nORDER BY ft\.\[RANK\] DESC, c\.id;$/.test(sql)) {
      return one(this.fullText(sql, p));
    }
    if (/^SELECT FULLTEXTCATALOGPROPERTY\(N'(\w+)', 'PopulateStatus'\) AS status;$/.test(sql)) return one([{ status: 0 }], 1);
    throw new FakeRequestError(102, `Incorrect syntax near '${sql.slice(0, 40)}'.`);
  }

  /** `IF <condition>\n<statement>` pairs: OBJECT_ID / INDEXPROPERTY / sys.fulltext_* conditions, CREATE statements. */
  private ddl(sql: string): { recordset: any[]; rowsAffected: number[] } {
    const lines = sql.split("\n");
    if (lines.length % 2 !== 0) throw new FakeRequestError(102, "Incorrect syntax near the end of the batch.");
    for (let i = 0; i < lines.length; i += 2) {
      const [cond, stmt] = [lines[i], lines[i + 1]];
      let missing: boolean;
      let m: RegExpExecArray | null;
      if ((m = /^IF OBJECT_ID\(N'([\w.]+)', N'U'\) IS NULL$/.exec(cond)) !== null) missing = !this.tables.has(m[1]);
      else if ((m = /^IF INDEXPROPERTY\(OBJECT_ID\(N'([\w.]+)'\), N'(\w+)', 'IndexID'\) IS NULL$/.exec(cond)) !== null) missing = !this.tables.get(m[1])?.indexes.has(m[2]);
      else if ((m = /^IF NOT EXISTS \(SELECT 1 FROM sys\.fulltext_catalogs WHERE name = N'(\w+)'\)$/.exec(cond)) !== null) missing = !this.catalogs.has(m[1]);
      else if ((m = /^IF NOT EXISTS \(SELECT 1 FROM sys\.fulltext_indexes WHERE object_id = OBJECT_ID\(N'([\w.]+)'\)\)$/.exec(cond)) !== null) missing = this.tables.get(m[1])?.fullText === undefined;
      else throw new FakeRequestError(102, `Incorrect syntax near '${cond}'.`);
      if (!missing) continue;
      if ((m = /^CREATE TABLE \[(\w+)\]\.\[(\w+)\] \((.*)\);$/.exec(stmt)) !== null) {
        const dims = /VECTOR\((\d+)\)/.exec(m[3]);
        if (dims !== null && Number(dims[1]) > 1998) throw new FakeRequestError(42201, `The vector dimension ${dims[1]} is out of range (1-1998).`);
        this.tables.set(`${m[1]}.${m[2]}`, { dimensions: dims === null ? undefined : Number(dims[1]), rows: new Map(), indexes: new Set() });
      } else if ((m = /^CREATE INDEX \[(\w+)\] ON \[(\w+)\]\.\[(\w+)\] \(source_path\);$/.exec(stmt)) !== null) {
        this.need(stmt).indexes.add(m[1]);
      } else if ((m = /^CREATE FULLTEXT CATALOG \[(\w+)\];$/.exec(stmt)) !== null) {
        this.catalogs.add(m[1]);
      } else if ((m = /^CREATE FULLTEXT INDEX ON \[\w+\]\.\[\w+\] \((\w+)\) KEY INDEX \[\w+\] ON \[(\w+)\] WITH CHANGE_TRACKING AUTO;$/.exec(stmt)) !== null) {
        if (!this.catalogs.has(m[2])) throw new FakeRequestError(7641, `Full-Text catalog '${m[2]}' does not exist.`);
        this.need(stmt).fullText = { column: m[1], catalog: m[2] };
      } else throw new FakeRequestError(102, `Incorrect syntax near '${stmt.slice(0, 40)}'.`);
    }
    return { recordset: [], rowsAffected: [] };
  }

  private merge(sql: string, p: Record<string, unknown>): { recordset: any[]; rowsAffected: number[] } {
    const t = this.need(sql);
    const cast = /CAST\(embedding AS VECTOR\((\d+)\)\)/.exec(sql);
    if (cast === null || !sql.includes("FROM OPENJSON(@rows) WITH (")) throw new FakeRequestError(102, "Incorrect syntax near 'MERGE'.");
    const rows = JSON.parse(String(p.rows)) as Array<{ id: string; sourcePath: string; text: string; record: unknown; vector: number[] }>;
    for (const r of rows) {
      if (r.vector.length !== Number(cast[1])) throw new FakeRequestError(42204, `The vector dimensions ${r.vector.length} and ${cast[1]} do not match.`);
      if (Number(cast[1]) !== t.dimensions) throw new FakeRequestError(206, `Operand type clash: vector(${cast[1]}) is incompatible with vector(${t.dimensions})`);
    }
    for (const r of rows) t.rows.set(r.id, { id: r.id, source_path: r.sourcePath, indexed_text: r.text, record: JSON.stringify(r.record), embedding: r.vector });
    return { recordset: [], rowsAffected: [rows.length] };
  }

  private sources(p: Record<string, unknown>): Set<string> | undefined {
    return p.sources === undefined ? undefined : new Set(JSON.parse(String(p.sources)) as string[]);
  }

  private vectorSearch(sql: string, p: Record<string, unknown>): any[] {
    const t = this.need(sql);
    const v = JSON.parse(String(p.vector)) as number[];
    if (v.length !== t.dimensions) throw new FakeRequestError(42204, `The vector dimensions ${v.length} and ${t.dimensions} do not match.`);
    const only = this.sources(p);
    return [...t.rows.values()]
      .filter((r) => only === undefined || only.has(r.source_path))
      .map((r) => ({ id: r.id, distance: 1 - cosineSimilarity(r.embedding, v) }))
      .sort((a, b) => a.distance - b.distance)
      .slice(0, Number(p.k));
  }

  private fullText(sql: string, p: Record<string, unknown>): any[] {
    const t = this.need(sql);
    if (t.fullText === undefined) throw new FakeRequestError(7601, `Cannot use a CONTAINS or FREETEXT predicate on table or indexed view '${this.table(sql)[0]}' because it is not full-text indexed.`);
    const query = String(p.query);
    const words = sql.includes("CONTAINSTABLE")
      ? query.split(/\s+OR\s+/).map((w) => {
          const m = /^"([^"]+)"$/.exec(w.trim());
          if (m === null) throw new FakeRequestError(7630, `Syntax error near '${w}' in the full-text search condition '${query}'.`);
          return m[1];
        })
      : wordTokens(query);
    const only = this.sources(p);
    const ranked = bm25Rank([...t.rows.values()], words.join(" "), (r) => r.indexed_text);
    return ranked
      .filter(({ item }) => only === undefined || only.has(item.source_path))
      .map(({ item, score }) => ({ id: item.id, score: Math.max(1, Math.round(score * 100)) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, Number(p.k));
  }
}
