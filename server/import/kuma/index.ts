// `vigil import kuma`: reads a Kuma source (read.ts), plans what each section (sections.ts) will create, update or
// cannot bring across, then applies every section in ONE transaction, so a failure anywhere leaves nothing half
// imported. What was imported is remembered in import_links by Kuma's ids: importing again updates it in place.
import { and, eq, sql } from "drizzle-orm";
import type { Db, Orm } from "../../db/database";
import { SECTIONS } from "./sections";
import type { ImportLinks, ImportOptions, ImportPlan, KumaSection, KumaSource, PlanItem } from "./section";

export { readKumaSource, type OpenKumaSource } from "./read";
export type { ImportOptions, ImportPlan, KumaSource, Note, PlanItem } from "./section";

const SOURCE = "kuma";

interface Links extends ImportLinks {
  /** Links recorded in this run, written to import_links at the end of the transaction. */
  readonly fresh: Map<string, { kind: string; sourceId: string; targetId: number }>;
}

async function loadLinks(db: Db): Promise<Links> {
  const { importLinks } = db.t;
  const rows = await db.orm.select().from(importLinks).where(eq(importLinks.source, SOURCE));
  const known = new Map(rows.map((r) => [`${r.kind}\0${r.sourceId}`, r.targetId]));
  const fresh = new Map<string, { kind: string; sourceId: string; targetId: number }>();
  return {
    fresh,
    target: (kind, sourceId) => known.get(`${kind}\0${sourceId}`),
    link(kind, sourceId, targetId) {
      const key = `${kind}\0${sourceId}`;
      known.set(key, targetId);
      fresh.set(key, { kind, sourceId: String(sourceId), targetId });
    },
  };
}

async function planSections(db: Db, source: KumaSource, links: Links, options: ImportOptions, sections: readonly KumaSection[]): Promise<[KumaSection, PlanItem[]][]> {
  const out: [KumaSection, PlanItem[]][] = [];
  for (const section of sections) out.push([section, await section.plan(source, { db, links, options })]);
  return out;
}

/** The plan's account of the source: the CLI prints the label; the UI words schema, file and version itself. */
function describe(source: KumaSource): ImportPlan["source"] {
  return { schema: source.schema, label: source.label, file: source.file, ...(source.version ? { version: source.version } : {}) };
}

/** Which sections run (all of sections.ts unless a test says otherwise), and the import's clock. */
export interface RunOptions {
  sections?: readonly KumaSection[];
  now?: number;
}

/** What an import would do, changing nothing. */
export async function planImport(db: Db, source: KumaSource, options: ImportOptions, { sections = SECTIONS }: RunOptions = {}): Promise<ImportPlan> {
  const planned = await planSections(db, source, await loadLinks(db), options, sections);
  return { source: describe(source), items: planned.flatMap(([, items]) => items) };
}

async function saveLinks(tx: Orm, db: Db, links: Links, now: number) {
  const { importLinks } = db.t;
  for (const l of links.fresh.values()) {
    await tx
      .insert(importLinks)
      .values({ source: SOURCE, kind: l.kind, sourceId: l.sourceId, targetId: l.targetId, importedAt: now })
      .onConflictDoUpdate({ target: [importLinks.source, importLinks.kind, importLinks.sourceId], set: { targetId: sql`excluded.target_id`, importedAt: now } });
  }
}

/** Plans, then applies the plan in one transaction (all of it, or nothing); resolves to the plan applied. */
export async function applyImport(db: Db, source: KumaSource, options: ImportOptions, { sections = SECTIONS, now = Date.now() }: RunOptions = {}): Promise<ImportPlan> {
  const links = await loadLinks(db);
  const planned = await planSections(db, source, links, options, sections);
  await db.tx(async (tx) => {
    const ctx = { db, tx, links, now, options };
    for (const [section, items] of planned) await section.apply(source, items, ctx);
    await saveLinks(tx, db, links, now);
  });
  return { source: describe(source), items: planned.flatMap(([, items]) => items) };
}

/** Kuma ids already imported, by kind (tests and the admin screen). */
export async function importedIds(db: Db, kind: string): Promise<Map<string, number>> {
  const { importLinks } = db.t;
  const rows = await db.orm.select().from(importLinks).where(and(eq(importLinks.source, SOURCE), eq(importLinks.kind, kind)));
  return new Map(rows.map((r) => [r.sourceId, r.targetId]));
}
