// Test helpers for the Kuma sections: a KumaSource over a copy of a kuma.db (read-only; tables as SELECT *), an
// ImportLinks over the import_links table, a run of sections (plan, then apply in one transaction, as the import
// does), and Vigil monitors standing in for the Kuma monitors the monitors section would have made.
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import type { Db, Orm } from "../../db/database";
import type { ImportLinks, ImportOptions, KumaSection, KumaSource, PlanItem } from "./section";

export { KUMA_FIXTURE_DIR as FIXTURE_DIR } from "./fixture";
import { KUMA_FIXTURE_DIR as FIXTURE_DIR } from "./fixture";
const SOURCE = "kuma";

/** A copy of the fixture (never the shared file) in a temp dir, opened read-only; `change` edits the copy first. */
export function fixtureSource(change?: (db: Database) => void): KumaSource & { close(): void } {
  const dir = mkdtempSync(join(tmpdir(), "kuma-src-"));
  const file = join(dir, "kuma.db");
  copyFileSync(join(FIXTURE_DIR, "kuma.db"), file);
  if (change) {
    const rw = new Database(file);
    change(rw);
    rw.close();
  }
  const db = new Database(file, { readonly: true });
  const columns = (table: string) => (db.query(`PRAGMA table_info("${table.replace(/"/g, '""')}")`).all() as { name: string }[]).map((c) => c.name);
  return {
    schema: "2.x",
    label: "Uptime Kuma 2.x database (kuma.db)",
    file: "kuma.db",
    rows: (table) => {
      const cols = columns(table);
      if (cols.length === 0) return [];
      return db.query(`SELECT * FROM "${table.replace(/"/g, '""')}"${cols.includes("id") ? " ORDER BY id" : ""}`).all() as Record<string, unknown>[];
    },
    has: (table, column) => {
      const cols = columns(table);
      return column === undefined ? cols.length > 0 : cols.includes(column);
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The links kept so far, read once; new ones are written by `flush` inside the transaction. */
/** Links kept in memory (the import keeps them in import_links). */
export function memoryLinks(): ImportLinks {
  const map = new Map<string, number>();
  return {
    target: (kind, sourceId) => map.get(`${kind}:${sourceId}`),
    link: (kind, sourceId, targetId) => void map.set(`${kind}:${sourceId}`, targetId),
  };
}

export async function testLinks(db: Db): Promise<ImportLinks & { flush(tx: Orm, now: number): Promise<void> }> {
  const t = db.t.importLinks;
  const map = new Map<string, number>();
  for (const r of await db.orm.select().from(t).where(eq(t.source, SOURCE))) map.set(`${r.kind}\0${r.sourceId}`, r.targetId);
  const pending = new Map<string, { kind: string; sourceId: string; targetId: number }>();
  return {
    target: (kind, sourceId) => map.get(`${kind}\0${String(sourceId)}`),
    link(kind, sourceId, targetId) {
      map.set(`${kind}\0${String(sourceId)}`, targetId);
      pending.set(`${kind}\0${String(sourceId)}`, { kind, sourceId: String(sourceId), targetId });
    },
    async flush(tx, now) {
      for (const p of pending.values()) {
        await tx.delete(t).where(and(eq(t.source, SOURCE), eq(t.kind, p.kind), eq(t.sourceId, p.sourceId)));
        await tx.insert(t).values({ source: SOURCE, ...p, importedAt: now });
      }
      pending.clear();
    },
  };
}

/** Plans the sections, then applies them in one transaction (the plan's items, in the sections' order). */
export async function runSections(db: Db, source: KumaSource, sections: KumaSection[], now = Date.now()): Promise<PlanItem[]> {
  const options: ImportOptions = { history: false };
  const links = await testLinks(db);
  const items: PlanItem[] = [];
  for (const s of sections) items.push(...(await s.plan(source, { db, links, options })));
  await db.tx(async (tx) => {
    for (const s of sections) await s.apply(source, items.filter((i) => i.kind === s.kind), { db, tx, links, now, options });
    await links.flush(tx, now);
  });
  return items;
}

/** A Vigil monitor for each Kuma monitor (`only`: just these Kuma ids), linked as the monitors section would. */
export async function standInMonitors(db: Db, source: KumaSource, only?: number[]): Promise<Map<number, number>> {
  const now = Date.now();
  const made = new Map<number, number>();
  const links = await testLinks(db);
  await db.tx(async (tx) => {
    for (const m of source.rows("monitor")) {
      const kumaId = Number(m.id);
      if (only && !only.includes(kumaId)) continue;
      const [row] = await tx.insert(db.t.monitors)
        .values({ name: String(m.name), settings: { url: "https://example.com/" }, intervalSeconds: 60, timeoutMs: 10_000, createdAt: now, updatedAt: now })
        .returning({ id: db.t.monitors.id });
      links.link("monitor", kumaId, row!.id);
      made.set(kumaId, row!.id);
    }
    await links.flush(tx, now);
  });
  return made;
}

export const manifest = (await Bun.file(join(FIXTURE_DIR, "manifest.json")).json()) as {
  notifications: { id: number; name: string; provider_type: string; is_default: boolean; active: boolean; fields: Record<string, unknown>; attached_to_monitors: number[] }[];
  status_pages: { id: number; slug: string; title: string; description: string; published: boolean; groups: { name: string; monitors: { id: number }[] }[]; incidents: { title: string; content: string; style: string }[] }[];
  maintenances: { id: number; title: string; description: string; strategy: string; timezone: string; start_date: string; end_date: string | null; start_time: string | null; end_time: string | null; weekdays: number[]; duration_s: number | null; monitors: { id: number }[]; status_pages: string[] }[];
  settings_changed: Record<string, unknown>;
};
