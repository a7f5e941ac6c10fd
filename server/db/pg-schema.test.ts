import { describe, expect, test } from "bun:test";
import { getTableColumns, getTableName, type Column } from "drizzle-orm";
import { generateDrizzleJson, generateMigration, generateSQLiteDrizzleJson, generateSQLiteMigration } from "drizzle-kit/api";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as kit from "./pg-kit-schema";
import { pgTables, sqliteTables } from "./pg-schema";
import * as sqliteSchema from "./schema";

const latestSnapshot = (dir: string) => {
  const file = readdirSync(join(dir, "meta")).filter((f) => f.endsWith("_snapshot.json")).sort().at(-1)!;
  return JSON.parse(readFileSync(join(dir, "meta", file), "utf8"));
};

/** pg-schema.ts's bytea is a custom column: it stands for a buffer-mode blob (both give a Buffer). */
const bytes = (c: Column) => c.dataType === "custom" && c.getSQLType() === "bytea";

describe("one schema, two engines", () => {
  test("every table exists on PostgreSQL with the same columns, nullability and JavaScript types", () => {
    expect(Object.keys(pgTables).sort()).toEqual(Object.keys(sqliteTables).sort());
    for (const [key, table] of Object.entries(sqliteTables)) {
      const pg = pgTables[key as keyof typeof pgTables];
      expect(getTableName(pg)).toBe(getTableName(table));
      // A primary key's default is the engine's own (SQLite's rowid, PostgreSQL's identity): not compared.
      const shape = (t: typeof table) =>
        Object.entries(getTableColumns(t)).map(([k, c]) => ({ k, name: c.name, notNull: c.notNull, dataType: bytes(c) ? "buffer" : c.dataType, hasDefault: c.primary || c.hasDefault }));
      expect({ key, columns: shape(pg) }).toEqual({ key, columns: shape(table) });
    }
  });

  test("drizzle-kit sees every PostgreSQL table (pg-kit-schema.ts exports them all)", () => {
    expect(Object.keys(kit).sort()).toEqual(Object.keys(pgTables).sort());
  });

  test("both engines' migrations are up to date with the schema (run `npm run db:generate` after a change)", async () => {
    const sqlite = latestSnapshot(join(import.meta.dir, "migrations"));
    expect(await generateSQLiteMigration(sqlite, await generateSQLiteDrizzleJson(sqliteSchema, sqlite.id))).toEqual([]);
    const pg = latestSnapshot(join(import.meta.dir, "migrations-pg"));
    expect(await generateMigration(pg, generateDrizzleJson(kit, pg.id))).toEqual([]);
  });

  test("PostgreSQL migrations name no schema, so Vigil can live in any (?schema= in the database URL)", () => {
    const dir = join(import.meta.dir, "migrations-pg");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".sql"))) expect(readFileSync(join(dir, file), "utf8")).not.toContain('"public".');
  });
});
