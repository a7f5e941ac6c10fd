// Dependencies between monitors (table monitor_dependencies): while a monitor this one depends on is down, this
// one's failures are recorded as "unreachable: <parent> is down" and alert nobody (server/notifications/rules.ts
// sends the held alert, if still due, when the parent recovers). Kept in memory both ways: what a monitor depends on
// (checked on every failed check) and what depends on it (the rules' recovery pass).
import { eq } from "drizzle-orm";
import type { Db } from "../db/database";
import { badRequest, HttpError } from "../http/errors";
import { LIMITS } from "./public";

export function createDependencies(db: Db) {
  const { orm, t } = db;
  /** monitor → the monitors it depends on, in the order given. */
  const parents = new Map<number, number[]>();
  /** monitor → the monitors that depend on it. */
  const children = new Map<number, Set<number>>();

  function link(id: number, list: number[]) {
    for (const p of parents.get(id) ?? []) children.get(p)?.delete(id);
    if (list.length) parents.set(id, list);
    else parents.delete(id);
    for (const p of list) {
      let set = children.get(p);
      if (!set) children.set(p, (set = new Set()));
      set.add(id);
    }
  }

  /** The path from `from` to `to` along dependencies (both ends included), or null. */
  function pathTo(from: number, to: number, seen = new Set<number>()): number[] | null {
    if (from === to) return [to];
    if (seen.has(from)) return null;
    seen.add(from);
    for (const next of parents.get(from) ?? []) {
      const rest = pathTo(next, to, seen);
      if (rest) return [from, ...rest];
    }
    return null;
  }

  return {
    async load() {
      const rows = await orm.select().from(t.monitorDependencies);
      parents.clear();
      children.clear();
      const byMonitor = new Map<number, number[]>();
      for (const r of rows) byMonitor.set(r.monitorId, [...(byMonitor.get(r.monitorId) ?? []), r.dependsOnId]);
      for (const [id, list] of byMonitor) link(id, list.sort((a, b) => a - b));
    },

    /** What a monitor depends on. */
    of: (id: number): number[] => parents.get(id) ?? [],
    /** The monitors that depend on this one. */
    dependentsOf: (id: number): number[] => [...(children.get(id) ?? [])],

    /**
     * The list as kept (duplicates dropped), or a 400: an unknown monitor, the monitor itself (`id`; null while
     * creating), more than LIMITS.maxDependencies, or a cycle (named by `nameOf`).
     */
    check(id: number | null, list: number[], exists: (id: number) => boolean, nameOf: (id: number) => string): number[] {
      const unique = [...new Set(list)];
      if (unique.length > LIMITS.maxDependencies) throw badRequest("TOO_MANY_DEPENDENCIES", `A monitor may depend on at most ${LIMITS.maxDependencies} others`);
      for (const p of unique) {
        if (p === id) throw badRequest("DEPENDENCY_SELF", "A monitor cannot depend on itself");
        if (!exists(p)) throw badRequest("DEPENDENCY_UNKNOWN", `Monitor ${p} does not exist: a monitor can only depend on existing monitors`);
      }
      if (id !== null) {
        for (const p of unique) {
          const path = pathTo(p, id);
          if (!path) continue;
          const cycle = [id, ...path].map(nameOf).join(" → ");
          throw new HttpError(400, "DEPENDENCY_CYCLE", `This would make a cycle of dependencies: ${cycle}`, { cycle });
        }
      }
      return unique;
    },

    /** Replaces what a monitor depends on (rows and memory). */
    async save(id: number, list: number[]) {
      await db.tx(async (tx) => {
        await tx.delete(t.monitorDependencies).where(eq(t.monitorDependencies.monitorId, id));
        if (list.length) await tx.insert(t.monitorDependencies).values(list.map((dependsOnId) => ({ monitorId: id, dependsOnId })));
      });
      link(id, list);
    },

    /** Re-reads one monitor's list (another node changed it). */
    async refresh(id: number) {
      const rows = await orm.select().from(t.monitorDependencies).where(eq(t.monitorDependencies.monitorId, id));
      link(id, rows.map((r) => r.dependsOnId).sort((a, b) => a - b));
    },

    /** A deleted monitor: its rows went with it (ON DELETE CASCADE), both of its sides go from memory. */
    forget(id: number) {
      link(id, []);
      for (const child of children.get(id) ?? []) {
        const rest = (parents.get(child) ?? []).filter((p) => p !== id);
        link(child, rest);
      }
      children.delete(id);
    },

    /** The first monitor `id` depends on that `isDown` says is down, or undefined. */
    blocker(id: number, isDown: (id: number) => boolean): number | undefined {
      const list = parents.get(id);
      return list && list.find(isDown);
    },
  };
}

export type Dependencies = ReturnType<typeof createDependencies>;
