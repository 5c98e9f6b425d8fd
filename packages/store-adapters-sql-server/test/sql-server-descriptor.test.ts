import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";
import { sqlServerStore } from "@hierdoc/store-adapters-sql-server/descriptor";

const context = { indexDir: "/tmp/unused", env: () => undefined };

describe("sql-server descriptor", () => {
  it("names the provider and its alias, documents every key, marks the connection string secret", () => {
    expect(sqlServerStore.providers).toEqual(["sql-server", "mssql"]);
    expect(sqlServerStore.keys.map((k) => k.key)).toEqual(["connection_string", "table", "schema", "full_text", "full_text_catalog", "timeout_seconds"]);
    expect(sqlServerStore.keys.filter((k) => k.required).map((k) => k.key)).toEqual(["connection_string"]);
    expect(sqlServerStore.keys.find((k) => k.key === "connection_string")?.secret).toBe(true);
    expect(sqlServerStore).toMatchObject({ testedWith: "driver-double", liveTestEnv: "HIERDOC_SQLSERVER_URL" });
  });

  it("validates strictly: the example passes; a missing connection string, a bad table name and an unknown full_text value are named", () => {
    expect(sqlServerStore.schema.safeParse(sqlServerStore.example).success).toBe(true);
    const missing = sqlServerStore.schema.safeParse({ provider: "mssql" });
    expect(missing.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual(["connection_string: required for sql-server"]);
    const bad = sqlServerStore.schema.safeParse({ ...sqlServerStore.example, table: "x;DROP" });
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(["table"]);
    expect(sqlServerStore.schema.safeParse({ ...sqlServerStore.example, full_text: "bm25" }).success).toBe(false);
  });

  it("capabilities follow the config: full text only when declared, never native hybrid", async () => {
    const plain = await sqlServerStore.create(sqlServerStore.schema.parse({ ...sqlServerStore.example, connection_string: "Server=h;Password=p" }), context);
    expect({ ...plain.capabilities }).toEqual(sqlServerStore.capabilities);
    const ft = await sqlServerStore.create(sqlServerStore.schema.parse({ ...sqlServerStore.example, connection_string: "Server=h", full_text: "freetext" }), context);
    expect(ft.capabilities).toMatchObject({ fullText: true, nativeHybrid: false });
  });

  it("does not import mssql (the registry loads every descriptor at start-up)", () => {
    const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../src/descriptor/index.ts"), "utf8");
    expect(source).not.toMatch(/from "mssql"/);
    expect(source).toMatch(/await import\("\.\.\/sql-server-store\.js"\)/);
  });
});
