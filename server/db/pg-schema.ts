// The PostgreSQL tables, derived from the one schema definition (the SQLite tables in schema.ts and the features'
// tables.ts) so the two engines cannot drift: a table or column added there exists here too, with the same name and
// the same JavaScript type. Mapping: integer → bigint (times are Unix ms), boolean-mode integer → boolean, real →
// double precision, JSON-mode text → jsonb, text → text, buffer-mode blob → bytea; an integer primary key that is not a foreign key is an
// identity column (SQLite's rowid alias); defaults, NOT NULL, unique columns, indexes (expressions included),
// composite primary keys and foreign keys with their ON DELETE are carried over.
import { Column, getTableColumns, is, SQL, type AnyColumn } from "drizzle-orm";
import * as pg from "drizzle-orm/pg-core";
import { getTableConfig, SQLiteTable, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import * as sqliteSchema from "./schema";

/** Every table of the schema module, by its export name. */
type SchemaTables = { [K in keyof typeof sqliteSchema as (typeof sqliteSchema)[K] extends SQLiteTable ? K : never]: (typeof sqliteSchema)[K] };

export const sqliteTables = Object.fromEntries(
  Object.entries(sqliteSchema).filter(([, v]) => is(v, SQLiteTable)),
) as unknown as SchemaTables;

const bySqlite = new Map<SQLiteTable, pg.PgTable>();

/** A column of a derived table: the PostgreSQL column of the same table and name. */
function pgColumn(column: Column): pg.AnyPgColumn {
  const table = bySqlite.get(column.table as SQLiteTable);
  if (!table) throw new Error(`no PostgreSQL table for ${column.table}`);
  const found = Object.values(getTableColumns(table)).find((c) => c.name === column.name);
  if (!found) throw new Error(`no PostgreSQL column ${column.name}`);
  return found as pg.AnyPgColumn;
}

/** An SQL expression (an index on lower(name), a default) with its column references moved to PostgreSQL. */
function remap(expr: SQL): SQL {
  return new SQL(expr.queryChunks.map((chunk) => (is(chunk, Column) ? pgColumn(chunk) : is(chunk, SQL) ? remap(chunk) : chunk)));
}

/** bytea, which drizzle's pg-core lacks: bytes in, a Buffer out (as SQLite's buffer-mode blob gives). */
const bytea = pg.customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

function columnBuilder(c: SQLiteColumn, foreignKey: boolean) {
  const name = c.name;
  let b: any;
  switch (c.columnType) {
    case "SQLiteInteger":
      b = pg.bigint(name, { mode: "number" });
      break;
    case "SQLiteBoolean":
      b = pg.boolean(name);
      break;
    case "SQLiteReal":
      b = pg.doublePrecision(name);
      break;
    case "SQLiteText":
      b = pg.text(name, c.enumValues?.length ? { enum: c.enumValues as [string, ...string[]] } : {});
      break;
    case "SQLiteTextJson":
      b = pg.jsonb(name);
      break;
    case "SQLiteBlobBuffer":
      b = bytea(name);
      break;
    default:
      throw new Error(`no PostgreSQL type for ${c.columnType} (${c.table}.${name})`);
  }
  if (c.primary) {
    b = b.primaryKey();
    if (c.columnType === "SQLiteInteger" && !foreignKey) b = b.generatedByDefaultAsIdentity();
  } else if (c.notNull) b = b.notNull();
  if (c.default !== undefined) b = b.default(is(c.default, SQL) ? remap(c.default) : c.default);
  if (c.defaultFn) b = b.$defaultFn(c.defaultFn);
  if (c.onUpdateFn) b = b.$onUpdateFn(c.onUpdateFn);
  if (c.isUnique) b = b.unique(c.uniqueName);
  return b;
}

function derive(table: SQLiteTable): pg.PgTable {
  const config = getTableConfig(table);
  const fkColumns = new Set(config.foreignKeys.flatMap((fk) => fk.reference().columns.map((c) => c.name)));
  const columns = Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, c]) => [key, columnBuilder(c as SQLiteColumn, fkColumns.has(c.name))]),
  );
  // Built lazily by drizzle (after every table exists), so foreign keys may point at any table.
  return pg.pgTable(config.name, columns, (t) => {
    const col = (c: AnyColumn | SQL | Column) => (is(c, SQL) ? remap(c) : (t[Object.keys(columns).find((k) => (columns[k] as any).config.name === (c as Column).name)!] as pg.AnyPgColumn));
    const extra: any[] = [];
    for (const index of config.indexes) {
      const on = (index.config.unique ? pg.uniqueIndex : pg.index)(index.config.name).on(...(index.config.columns.map(col) as [pg.AnyPgColumn]));
      extra.push(index.config.where ? on.where(remap(index.config.where)) : on);
    }
    for (const pk of config.primaryKeys) extra.push(pg.primaryKey({ columns: pk.columns.map(col) as [pg.AnyPgColumn] }));
    for (const fk of config.foreignKeys) {
      const ref = fk.reference();
      let b = pg.foreignKey({
        columns: ref.columns.map(col) as [pg.AnyPgColumn],
        foreignColumns: ref.foreignColumns.map(pgColumn) as [pg.AnyPgColumn],
        ...(ref.name ? { name: ref.name } : {}),
      });
      if (fk.onDelete) b = b.onDelete(fk.onDelete);
      if (fk.onUpdate) b = b.onUpdate(fk.onUpdate);
      extra.push(b);
    }
    return extra;
  });
}

for (const table of Object.values(sqliteTables) as SQLiteTable[]) bySqlite.set(table, derive(table));

/**
 * The PostgreSQL tables under the same names as the SQLite ones. They are typed as the SQLite tables: the stores
 * build their queries against one static schema, and both engines return the same JavaScript values for it.
 */
export const pgTables = Object.fromEntries(
  Object.entries(sqliteTables).map(([key, table]) => [key, bySqlite.get(table as SQLiteTable)!]),
) as unknown as SchemaTables;

export type Tables = SchemaTables;
