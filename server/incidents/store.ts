// Incidents in the database: the row, what it affects, the pages it is posted on, and its timeline of updates.
import { and, asc, desc, eq, gte, inArray, isNull, ne, or } from "drizzle-orm";
import { first, type Db, type Orm } from "../db/database";
import type { IncidentImpact, IncidentUpdateInput, PublicIncident } from "./public";
import type { IncidentRow } from "./tables";

/** What a create or an edit writes (checked by the service: ids exist, texts fit). */
export interface IncidentValues {
  title: string;
  impact: IncidentImpact;
  monitorIds: number[];
  agentIds: number[];
  pageIds: number[];
}

export function createIncidentStore(db: Db, now: () => number = Date.now) {
  const { orm } = db;
  const { incidents, incidentUpdates, incidentMonitors, incidentAgents, incidentPages, users } = db.t;

  /** Incidents with their targets, pages and timeline, in the order of `rows`. */
  async function complete(rows: IncidentRow[]): Promise<PublicIncident[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const [monitors, agents, pages, updates] = await Promise.all([
      orm.select().from(incidentMonitors).where(inArray(incidentMonitors.incidentId, ids)).orderBy(asc(incidentMonitors.monitorId)),
      orm.select().from(incidentAgents).where(inArray(incidentAgents.incidentId, ids)).orderBy(asc(incidentAgents.agentId)),
      orm.select().from(incidentPages).where(inArray(incidentPages.incidentId, ids)).orderBy(asc(incidentPages.pageId)),
      orm
        .select({ id: incidentUpdates.id, incidentId: incidentUpdates.incidentId, state: incidentUpdates.state, message: incidentUpdates.message, at: incidentUpdates.at, createdBy: users.username })
        .from(incidentUpdates)
        .leftJoin(users, eq(users.id, incidentUpdates.createdBy))
        .where(inArray(incidentUpdates.incidentId, ids))
        .orderBy(asc(incidentUpdates.at), asc(incidentUpdates.id)),
    ]);
    const by = new Map<number, PublicIncident>();
    for (const r of rows) {
      by.set(r.id, { id: r.id, title: r.title, impact: r.impact, state: r.state, monitorIds: [], agentIds: [], pageIds: [], createdAt: r.createdAt, updatedAt: r.updatedAt, resolvedAt: r.resolvedAt, updates: [] });
    }
    for (const m of monitors) by.get(m.incidentId)?.monitorIds.push(m.monitorId);
    for (const a of agents) by.get(a.incidentId)?.agentIds.push(a.agentId);
    for (const p of pages) by.get(p.incidentId)?.pageIds.push(p.pageId);
    for (const u of updates) by.get(u.incidentId)?.updates.push({ id: u.id, state: u.state, message: u.message, at: u.at, createdBy: u.createdBy ?? null });
    return rows.map((r) => by.get(r.id)!);
  }

  async function writeLinks(tx: Orm, id: number, v: IncidentValues) {
    await tx.delete(incidentMonitors).where(eq(incidentMonitors.incidentId, id));
    await tx.delete(incidentAgents).where(eq(incidentAgents.incidentId, id));
    await tx.delete(incidentPages).where(eq(incidentPages.incidentId, id));
    if (v.monitorIds.length) await tx.insert(incidentMonitors).values(v.monitorIds.map((monitorId) => ({ incidentId: id, monitorId })));
    if (v.agentIds.length) await tx.insert(incidentAgents).values(v.agentIds.map((agentId) => ({ incidentId: id, agentId })));
    if (v.pageIds.length) await tx.insert(incidentPages).values(v.pageIds.map((pageId) => ({ incidentId: id, pageId })));
  }

  /** The incident's state and resolution follow its latest update. */
  async function settle(tx: Orm, id: number) {
    const latest = await first(tx.select().from(incidentUpdates).where(eq(incidentUpdates.incidentId, id)).orderBy(desc(incidentUpdates.at), desc(incidentUpdates.id)).limit(1));
    if (!latest) return;
    await tx
      .update(incidents)
      .set({ state: latest.state, resolvedAt: latest.state === "resolved" ? latest.at : null, updatedAt: now() })
      .where(eq(incidents.id, id));
  }

  const store = {
    /** Open incidents and those resolved since `since` (all when null), newest first. */
    async list(since: number | null = null): Promise<PublicIncident[]> {
      const where = since === null ? undefined : or(ne(incidents.state, "resolved"), isNull(incidents.resolvedAt), gte(incidents.resolvedAt, since));
      return complete(await orm.select().from(incidents).where(where).orderBy(desc(incidents.createdAt), desc(incidents.id)));
    },

    async get(id: number): Promise<PublicIncident | undefined> {
      const [found] = await complete(await orm.select().from(incidents).where(eq(incidents.id, id)));
      return found;
    },

    async create(v: IncidentValues, update: Required<IncidentUpdateInput>, userId: number | null): Promise<PublicIncident> {
      const at = now();
      const id = await db.tx(async (tx) => {
        const [row] = await tx
          .insert(incidents)
          .values({ title: v.title, impact: v.impact, state: update.state, createdAt: Math.min(at, update.at), updatedAt: at, resolvedAt: update.state === "resolved" ? update.at : null })
          .returning({ id: incidents.id });
        await writeLinks(tx, row.id, v);
        await tx.insert(incidentUpdates).values({ incidentId: row.id, state: update.state, message: update.message, at: update.at, createdBy: userId, createdAt: at });
        return row.id;
      });
      return (await store.get(id))!;
    },

    async update(id: number, v: IncidentValues): Promise<PublicIncident | undefined> {
      const found = await db.tx(async (tx) => {
        const rows = await tx.update(incidents).set({ title: v.title, impact: v.impact, updatedAt: now() }).where(eq(incidents.id, id)).returning({ id: incidents.id });
        if (!rows.length) return false;
        await writeLinks(tx, id, v);
        return true;
      });
      return found ? store.get(id) : undefined;
    },

    async addUpdate(id: number, update: Required<IncidentUpdateInput>, userId: number | null): Promise<PublicIncident | undefined> {
      const found = await db.tx(async (tx) => {
        if (!(await first(tx.select({ id: incidents.id }).from(incidents).where(eq(incidents.id, id))))) return false;
        await tx.insert(incidentUpdates).values({ incidentId: id, state: update.state, message: update.message, at: update.at, createdBy: userId, createdAt: now() });
        await settle(tx, id);
        return true;
      });
      return found ? store.get(id) : undefined;
    },

    /** Changes one update; undefined when the incident or the update is not there. */
    async editUpdate(id: number, updateId: number, update: Required<IncidentUpdateInput>): Promise<PublicIncident | undefined> {
      const found = await db.tx(async (tx) => {
        const rows = await tx
          .update(incidentUpdates)
          .set({ state: update.state, message: update.message, at: update.at })
          .where(and(eq(incidentUpdates.id, updateId), eq(incidentUpdates.incidentId, id)))
          .returning({ id: incidentUpdates.id });
        if (!rows.length) return false;
        await settle(tx, id);
        return true;
      });
      return found ? store.get(id) : undefined;
    },

    /** Deletes one update: "missing" when not there, "last" when it is the only one (delete the incident instead). */
    async deleteUpdate(id: number, updateId: number): Promise<PublicIncident | "missing" | "last"> {
      const outcome = await db.tx(async (tx) => {
        const updates = await tx.select({ id: incidentUpdates.id }).from(incidentUpdates).where(eq(incidentUpdates.incidentId, id)).orderBy(asc(incidentUpdates.id));
        if (!updates.some((u) => u.id === updateId)) return "missing" as const;
        if (updates.length === 1) return "last" as const;
        await tx.delete(incidentUpdates).where(eq(incidentUpdates.id, updateId));
        await settle(tx, id);
        return "done" as const;
      });
      return outcome === "done" ? (await store.get(id))! : outcome;
    },

    async remove(id: number): Promise<boolean> {
      return (await orm.delete(incidents).where(eq(incidents.id, id)).returning({ id: incidents.id })).length > 0;
    },
  };
  return store;
}

export type IncidentStore = ReturnType<typeof createIncidentStore>;
