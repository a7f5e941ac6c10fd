// Monitor groups: a monitor of type "group" holds monitors and groups (their parentId names it). A group checks nothing;
// its state follows its members' by its rule, and is kept like any monitor's (status, statusChangedAt, checks):
// - worst: down when any counted member is down, else pending when any is pending, else up;
// - all: down only when every counted member is down, up when any is up, else pending.
// Counted members are the active ones outside maintenance (and member groups with something to count); a group with
// none (empty, or every member paused) is pending. This module knows the tree (members, ancestors, the parent rules); the service records the verdicts.
import { badRequest, conflict } from "../http/errors";
import { groupDownError } from "./check-errors";
import type { MonitorFields } from "./field-rules";
import type { MonitorStatus } from "./public";
import type { MonitorStore } from "./store";

/** How deep groups may nest: a bound for the walks up the tree (cycles are refused, this is only a guard). */
export const MAX_DEPTH = 32;
/** Down members a group's error names (the rest are counted). */
const NAMED = 5;

export interface GroupVerdict {
  status: MonitorStatus;
  /** The members counted (active, outside maintenance). */
  total: number;
  down: number;
  /** The down sentence (check-errors.ts) when down, else null. */
  error: string | null;
}

export function createGroupTree(store: MonitorStore, inMaintenance: (id: number) => boolean) {
  /** group id → its direct members' ids; rebuilt on the first use after a change. */
  let index: Map<number, number[]> | null = null;

  function members(id: number): number[] {
    if (!index) {
      index = new Map();
      for (const e of store.all()) {
        const p = e.fields.parentId;
        if (p === null) continue;
        const list = index.get(p);
        if (list) list.push(e.id);
        else index.set(p, [e.id]);
      }
    }
    return index.get(id) ?? [];
  }

  /** Every member, members of member groups included (depth first). */
  function descendants(id: number): number[] {
    const out: number[] = [];
    const walk = (g: number, depth: number) => {
      if (depth > MAX_DEPTH) return;
      for (const m of members(g)) {
        out.push(m);
        walk(m, depth + 1);
      }
    };
    walk(id, 0);
    return out;
  }

  /** The groups above a monitor, nearest first. */
  function ancestors(id: number): number[] {
    const out: number[] = [];
    let p = store.get(id)?.fields.parentId ?? null;
    while (p !== null && out.length < MAX_DEPTH && !out.includes(p)) {
      out.push(p);
      p = store.get(p)?.fields.parentId ?? null;
    }
    return out;
  }

  /**
   * Refuses what would break the tree: a parent that does not exist (400, as other references to missing monitors),
   * that is not a group (400), or that is the monitor itself or one of its members (409); a group that has members
   * may not become another type (409).
   */
  function checkFields(id: number | undefined, fields: MonitorFields) {
    if (id !== undefined && fields.type !== "group" && members(id).length > 0) {
      throw conflict("GROUP_HAS_MEMBERS", "This group has members: move them out before changing its type");
    }
    if (fields.parentId === null) return;
    const parent = store.get(fields.parentId);
    if (!parent) throw badRequest("PARENT_NOT_FOUND", `Group ${fields.parentId} does not exist`);
    if (id !== undefined && (fields.parentId === id || ancestors(fields.parentId).includes(id))) {
      throw conflict("GROUP_CYCLE", "A group cannot be placed inside itself or one of its own members");
    }
    if (parent.fields.type !== "group") throw badRequest("PARENT_NOT_GROUP", `Monitor ${fields.parentId} is not a group: only groups hold monitors`);
    if (ancestors(fields.parentId).length + 1 >= MAX_DEPTH) throw badRequest("GROUP_TOO_DEEP", `Groups nest at most ${MAX_DEPTH} deep`);
  }

  /** The state a group's members give it now. A member group with nothing to count (empty) is left out too. */
  function verdict(id: number, depth = 0): GroupVerdict {
    const group = store.get(id);
    let total = 0;
    let up = 0;
    let pending = 0;
    const down: string[] = [];
    for (const m of members(id)) {
      const e = store.get(m);
      if (!e || !e.fields.active || inMaintenance(m)) continue;
      if (e.fields.type === "group" && (depth >= MAX_DEPTH || verdict(m, depth + 1).total === 0)) continue;
      total++;
      if (e.state.status === "up") up++;
      else if (e.state.status === "pending") pending++;
      else down.push(e.fields.name);
    }
    let status: MonitorStatus;
    if (total === 0) status = "pending";
    else if (group?.fields.groupRule === "all") status = down.length === total ? "down" : up > 0 ? "up" : "pending";
    else status = down.length > 0 ? "down" : pending > 0 ? "pending" : "up";
    const names = down.slice(0, NAMED).join(", ") + (down.length > NAMED ? ", …" : "");
    return { status, total, down: down.length, error: status === "down" ? groupDownError(down.length, total, names) : null };
  }

  return {
    members,
    descendants,
    ancestors,
    checkFields,
    verdict,
    /** The tree changed (a monitor created, moved, deleted, re-read). */
    invalidate: () => {
      index = null;
    },
  };
}

export type GroupTree = ReturnType<typeof createGroupTree>;
