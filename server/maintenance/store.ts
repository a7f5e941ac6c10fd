// Maintenance windows in the database: a row per window, its monitors and agents beside it.
import { asc, eq } from "drizzle-orm";
import { first, type Db } from "../db/database";
import type { MaintenanceWindow } from "./public";
import type { Schedule } from "./schedule";
import type { MaintenanceWindowRow } from "./tables";

/** A window as stored (the service adds its state and occurrences). */
export type StoredWindow = MaintenanceWindow;

/** What a save writes (ids already checked to exist, without repeats). */
export type WindowValues = Omit<StoredWindow, "id" | "createdAt" | "updatedAt" | "cutAt">;

/** A stored window row's schedule (the configuration file reads rows through it too). */
export const scheduleOf = (r: MaintenanceWindowRow): Schedule => ({
  kind: r.kind,
  startsAt: r.startsAt,
  endsAt: r.endsAt,
  time: r.time,
  weekdays: r.weekdays,
  monthDays: r.monthDays,
  cron: r.cron,
  durationMinutes: r.durationMinutes,
  timezone: r.timezone,
  activeFrom: r.activeFrom,
  activeUntil: r.activeUntil,
});

const columnsOf = (v: WindowValues) => ({
  title: v.title,
  description: v.description,
  scope: v.scope,
  ...v.schedule,
});

export function createMaintenanceStore(db: Db, now: () => number = Date.now) {
  const { orm } = db;
  const { maintenanceWindows: windows, maintenanceMonitors, maintenanceAgents } = db.t;

  async function targetsOf(ids?: number[]) {
    const monitors = await orm.select().from(maintenanceMonitors).orderBy(asc(maintenanceMonitors.windowId), asc(maintenanceMonitors.monitorId));
    const agents = await orm.select().from(maintenanceAgents).orderBy(asc(maintenanceAgents.windowId), asc(maintenanceAgents.agentId));
    const wanted = ids && new Set(ids);
    const by = new Map<number, { monitorIds: number[]; agentIds: number[] }>();
    const slot = (id: number) => {
      let s = by.get(id);
      if (!s) by.set(id, (s = { monitorIds: [], agentIds: [] }));
      return s;
    };
    for (const r of monitors) if (!wanted || wanted.has(r.windowId)) slot(r.windowId).monitorIds.push(r.monitorId);
    for (const r of agents) if (!wanted || wanted.has(r.windowId)) slot(r.windowId).agentIds.push(r.agentId);
    return by;
  }

  const toStored = (r: MaintenanceWindowRow, t?: { monitorIds: number[]; agentIds: number[] }): StoredWindow => ({
    id: r.id,
    title: r.title,
    description: r.description,
    scope: r.scope,
    monitorIds: r.scope === "all" ? [] : (t?.monitorIds ?? []),
    agentIds: r.scope === "all" ? [] : (t?.agentIds ?? []),
    schedule: scheduleOf(r),
    cutAt: r.cutAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  });

  async function writeTargets(tx: Db["orm"], id: number, v: WindowValues) {
    await tx.delete(maintenanceMonitors).where(eq(maintenanceMonitors.windowId, id));
    await tx.delete(maintenanceAgents).where(eq(maintenanceAgents.windowId, id));
    if (v.scope === "all") return;
    if (v.monitorIds.length) await tx.insert(maintenanceMonitors).values(v.monitorIds.map((monitorId) => ({ windowId: id, monitorId })));
    if (v.agentIds.length) await tx.insert(maintenanceAgents).values(v.agentIds.map((agentId) => ({ windowId: id, agentId })));
  }

  const store = {
    async all(): Promise<StoredWindow[]> {
      const rows = await orm.select().from(windows).orderBy(asc(windows.id));
      const targets = await targetsOf();
      return rows.map((r) => toStored(r, targets.get(r.id)));
    },

    async get(id: number): Promise<StoredWindow | undefined> {
      const row = await first(orm.select().from(windows).where(eq(windows.id, id)));
      return row && toStored(row, (await targetsOf([id])).get(id));
    },

    count: async () => (await orm.select({ id: windows.id }).from(windows)).length,

    async create(v: WindowValues): Promise<StoredWindow> {
      const at = now();
      const id = await db.tx(async (tx) => {
        const [row] = await tx.insert(windows).values({ ...columnsOf(v), createdAt: at, updatedAt: at }).returning({ id: windows.id });
        await writeTargets(tx, row.id, v);
        return row.id;
      });
      return (await store.get(id))!;
    },

    /** Replaces a window's fields and targets; an edit clears an early end (the edited schedule counts as written). */
    async update(id: number, v: WindowValues): Promise<StoredWindow | undefined> {
      const found = await db.tx(async (tx) => {
        const updated = await tx.update(windows).set({ ...columnsOf(v), cutAt: null, updatedAt: now() }).where(eq(windows.id, id)).returning({ id: windows.id });
        if (!updated.length) return false;
        await writeTargets(tx, id, v);
        return true;
      });
      return found ? store.get(id) : undefined;
    },

    /** Ends the occurrence in progress at `at` (a manual window ends for good). */
    async cut(id: number, at: number, manual: boolean): Promise<StoredWindow | undefined> {
      const updated = await orm.update(windows).set({ cutAt: at, ...(manual ? { endsAt: at } : {}), updatedAt: now() }).where(eq(windows.id, id)).returning({ id: windows.id });
      return updated.length ? store.get(id) : undefined;
    },

    async remove(id: number): Promise<boolean> {
      return (await orm.delete(windows).where(eq(windows.id, id)).returning({ id: windows.id })).length > 0;
    },
  };
  return store;
}

export type MaintenanceStore = ReturnType<typeof createMaintenanceStore>;
