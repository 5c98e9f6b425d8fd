import { describe, expect, it } from "@jest/globals";
import { closedPort, runStoreConformance } from "@hierdoc/core/testing";
import { SqlServerStore } from "@hierdoc/store-adapters-sql-server";

// Live test against a real SQL Server 2025 / Azure SQL (VECTOR type; full-text search installed for the
// full_text runs): HIERDOC_SQLSERVER_URL="Server=tcp:HOST,1433;Database=DB;User Id=USER;Password=…;Encrypt=true;TrustServerCertificate=true"
// (or mssql://USER:PASSWORD@HOST:1433/DB). This is the only test of the TDS path: the other tests use a ConnectionPool double.
const url = process.env.HIERDOC_SQLSERVER_URL;

if (url === undefined || url === "") {
  describe.skip("sql-server live database (skipped: HIERDOC_SQLSERVER_URL not set)", () => {
    it("runs the conformance suite against a real SQL Server", () => {
      expect(url).toBeTruthy();
    });
  });
} else {
  for (const fullText of ["none", "contains"] as const) {
    let seq = 0;
    const made: SqlServerStore[] = [];
    runStoreConformance(`sql-server (live, full_text: ${fullText})`, {
      timeoutMs: 120_000,
      async create() {
        const table = `hd_conf_${process.pid}_${++seq}`;
        const make = (): SqlServerStore => {
          const s = new SqlServerStore({ connectionString: url, table, fullText, maxBatchSize: 8, timeoutMs: 30_000 });
          made.push(s);
          return s;
        };
        return {
          store: make(),
          reopen: async () => make(),
          // Tables are left for inspection; drop hd_conf_* tables by hand (DDL needs rights the tests should not assume).
          async cleanup() {
            for (const s of made.splice(0)) await s.close();
          },
        };
      },
      async unreachable() {
        return new SqlServerStore({ connectionString: `Server=127.0.0.1,${await closedPort()};Database=x;User Id=u;Password=p;Encrypt=false`, retries: 1, retryDelayMs: 10 });
      },
    });
  }
}
