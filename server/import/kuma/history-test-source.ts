// Test helper: a KumaSource over a copy of a Kuma SQLite database (read-only), and an in-memory ImportLinks.
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImportLinks, KumaSource } from "./section";

export { KUMA_FIXTURE_DIR as FIXTURE_DIR } from "./fixture";
import { KUMA_FIXTURE_DIR as FIXTURE_DIR } from "./fixture";

/** The fixture's kuma.db copied to a temp dir and opened read-only; close() removes the copy. */
export function fixtureSource(): KumaSource & { close(): void } {
  const dir = mkdtempSync(join(tmpdir(), "vigil-kuma-"));
  const path = join(dir, "kuma.db");
  copyFileSync(join(FIXTURE_DIR, "kuma.db"), path);
  const sqlite = new Database(path, { readonly: true });
  const columns = (table: string) => (sqlite.query(`PRAGMA table_info("${table.replaceAll('"', '""')}")`).all() as { name: string }[]).map((c) => c.name);
  return {
    schema: "2.x",
    label: "Uptime Kuma 2.x database (kuma.db)",
    file: "kuma.db",
    has: (table, column) => {
      const cols = columns(table);
      return column === undefined ? cols.length > 0 : cols.includes(column);
    },
    rows: (table) => (columns(table).length === 0 ? [] : (sqlite.query(`SELECT * FROM "${table.replaceAll('"', '""')}"`).all() as Record<string, unknown>[])),
    close() {
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Links kept in memory (the import keeps them in import_links). */
export function memoryLinks(): ImportLinks {
  const map = new Map<string, number>();
  return {
    target: (kind, sourceId) => map.get(`${kind}:${sourceId}`),
    link: (kind, sourceId, targetId) => void map.set(`${kind}:${sourceId}`, targetId),
  };
}
