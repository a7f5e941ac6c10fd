// Applying a plan: every write in ONE transaction (as the Kuma import does), so a failure leaves nothing half
// applied; config_links records each managed object's key and the hash of what was written. The running services
// re-read afterwards (server/import/after-import.ts: monitors and their schedule, on every node of a cluster).
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Orm } from "../db/database";
import type { Tables } from "../db/pg-schema";
import { rowOf } from "../monitors/stored-fields";
import { planConfig, type ConfigPlan, type Desired, type PlanOptions, type Planned } from "./plan";
import type { Form } from "./model";
import { SECTION_DEFS, sectionOf } from "./sections";
import { writeOverride } from "./sections/notify";
import { PasswordBook } from "./sections/passwords";
import type { SectionDef } from "./sections/section";
import { readState, type CurrentObject } from "./state";

export interface ApplyResult {
  plan: ConfigPlan;
  /** Whether anything was written (false: the database already matched the file). */
  written: boolean;
}

/** Plans the file and applies the plan in one transaction. Nothing is written when the plan is empty. */
export async function applyConfig(db: Db, text: string, options: PlanOptions, now = Date.now()): Promise<ApplyResult> {
  // A first plan outside the transaction refuses an invalid file and does the slow password work (passwords.ts).
  const passwords = new PasswordBook();
  await planConfig(db.orm, db.t, text, { ...options, passwords });
  return db.tx(async (tx) => {
    // Planned again inside the transaction: what it compares against cannot change before the writes.
    const planned = await planConfig(tx, db.t, text, { ...options, passwords });
    const written = await write(tx, db.t, planned, now, passwords);
    return { plan: planned.plan, written };
  });
}

async function write(tx: Orm, t: Tables, planned: Planned, now: number, passwords: PasswordBook): Promise<boolean> {
  const { plan, desired, deletes, staleLinks } = planned;
  const touched = new Set(plan.items.filter((i) => i.action !== "delete").map((i) => `${i.kind}\0${i.key}`));
  const linkOnly = desired.filter((d) => !touched.has(`${d.kind}\0${d.key}`) && d.current?.link && d.current.link.appliedHash !== d.hash);
  if (touched.size === 0 && deletes.length === 0 && staleLinks.length === 0 && linkOnly.length === 0) return false;

  const byLower = sql`lower(${t.tagStyles.name})`;
  const idOf = new Map<string, number>();
  const objectIds = new Map<Desired, string>();
  const isMonitor = (kind: string) => kind === "monitor" || kind === "group";
  for (const d of desired) if (d.current && isMonitor(d.kind)) idOf.set(d.key, Number(d.current.objectId));
  const changing = desired.filter((d) => touched.has(`${d.kind}\0${d.key}`));
  const refs = { monitorId: (key: string) => idOf.get(key)!, passwords };
  const writeSection = async (def: SectionDef) => {
    for (const d of changing.filter((x) => x.kind === def.kind)) objectIds.set(d, await def.write(tx, t, d.form, d.current?.row, refs, now));
  };

  // Managed objects the file no longer has go first (a channel leaves the settings before overrides are written).
  for (const def of SECTION_DEFS) for (const o of deletes.filter((x) => x.kind === def.kind)) await def.remove(tx, t, o.objectId);
  // Channels before the monitors whose notify names them.
  await writeSection(sectionOf("channel")!);
  const channelIds = new Map(desired.filter((d) => d.kind === "channel").map((d) => [d.key, Number(objectIds.get(d) ?? d.current!.objectId)]));

  for (const d of changing) {
    if (!isMonitor(d.kind) && d.kind !== "tag") continue;
    if (d.kind === "tag") {
      if (d.current) await tx.delete(t.tagStyles).where(eq(byLower, d.current.objectId.toLowerCase()));
      await tx.delete(t.tagStyles).where(eq(byLower, d.name.toLowerCase()));
      await tx.insert(t.tagStyles).values({ name: d.name, color: d.form.color as string });
      objectIds.set(d, d.name);
      continue;
    }
    // A push monitor keeps its push URL (the file does not hold it); a new one gets the one its type made.
    const pushToken = d.current?.fields?.pushToken ?? d.fields!.pushToken;
    const row = { ...rowOf({ ...d.fields!, pushToken: d.fields!.type === "push" ? pushToken : null, parentId: null }), updatedAt: now };
    if (d.current) {
      const { parentId: _, ...rest } = row;
      await tx.update(t.monitors).set(rest).where(eq(t.monitors.id, Number(d.current.objectId)));
    } else {
      const [created] = await tx.insert(t.monitors).values({ ...row, createdAt: now }).returning({ id: t.monitors.id });
      idOf.set(d.key, created!.id);
    }
  }
  // References once every object has its id: groups, then dependencies.
  for (const d of changing) {
    if (!isMonitor(d.kind)) continue;
    const id = idOf.get(d.key)!;
    objectIds.set(d, String(id));
    const group = d.form.group as string | null;
    await tx.update(t.monitors).set({ parentId: group === null ? null : idOf.get(group)! }).where(eq(t.monitors.id, id));
    await tx.delete(t.monitorDependencies).where(eq(t.monitorDependencies.monitorId, id));
    const deps = (d.form.dependsOn as string[]).map((k) => ({ monitorId: id, dependsOnId: idOf.get(k)! }));
    if (deps.length) await tx.insert(t.monitorDependencies).values(deps);
    await writeOverride(tx, t, id, d.form.notify as Form | null, (k) => channelIds.get(k)!, now);
  }
  // Status pages and maintenance windows name monitors.
  for (const def of SECTION_DEFS) if (def.kind !== "channel") await writeSection(def);

  await prune(tx, t, deletes.filter((o) => isMonitor(o.kind) || o.kind === "tag"));

  for (const link of staleLinks) await tx.delete(t.configLinks).where(and(eq(t.configLinks.kind, link.kind), eq(t.configLinks.key, link.key)));
  for (const d of [...changing, ...linkOnly]) {
    const objectId = objectIds.get(d) ?? d.current!.objectId;
    // An old link to the same object under another key (a key renamed in the file) gives way.
    await tx.delete(t.configLinks).where(and(eq(t.configLinks.kind, d.kind), eq(t.configLinks.objectId, objectId)));
    await tx
      .insert(t.configLinks)
      .values({ kind: d.kind, key: d.key, objectId, appliedHash: d.hash, appliedAt: now })
      .onConflictDoUpdate({ target: [t.configLinks.kind, t.configLinks.key], set: { objectId, appliedHash: d.hash, appliedAt: now } });
  }
  // What a section stored may differ from the file's form (a page's password is kept as a hash): the link records
  // the stored form, read back with the links in place, so the next plan sees no drift.
  const written = [...changing, ...linkOnly].filter((d) => sectionOf(d.kind));
  if (written.length) {
    const after = await readState(tx, t);
    for (const d of written) {
      const stored = after.byKey(d.kind, d.key);
      if (stored && stored.hash !== d.hash) await tx.update(t.configLinks).set({ appliedHash: stored.hash }).where(and(eq(t.configLinks.kind, d.kind), eq(t.configLinks.key, d.key)));
    }
  }
  return true;
}

/** Deletes managed objects the file no longer has. A deleted group's other members move to its own group, as in the API. */
async function prune(tx: Orm, t: Tables, deletes: CurrentObject[]) {
  const monitorIds = deletes.filter((o) => o.kind !== "tag").map((o) => Number(o.objectId));
  // Their own notification settings go with them (as deleting one in the UI does).
  if (monitorIds.length) await tx.delete(t.notificationOverrides).where(and(eq(t.notificationOverrides.targetType, "monitor"), inArray(t.notificationOverrides.targetId, monitorIds)));
  const gone = new Set(monitorIds);
  for (const o of deletes) {
    if (o.kind === "tag") {
      await tx.delete(t.tagStyles).where(eq(sql`lower(${t.tagStyles.name})`, o.objectId.toLowerCase()));
    } else if (o.kind === "group") {
      let parent = o.fields?.parentId ?? null;
      // Up past groups deleted too.
      const parents = new Map(deletes.filter((x) => x.kind === "group").map((x) => [Number(x.objectId), x.fields?.parentId ?? null]));
      while (parent !== null && gone.has(parent)) parent = parents.get(parent) ?? null;
      await tx.update(t.monitors).set({ parentId: parent }).where(eq(t.monitors.parentId, Number(o.objectId)));
    }
  }
  if (monitorIds.length) await tx.delete(t.monitors).where(inArray(t.monitors.id, monitorIds));
}
