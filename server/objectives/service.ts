// Objectives: each monitor or group with an availability objective gets its error budget computed from the same
// rollups as reports (server/reports/sources.ts) over its rolling window, and its burn rates from the raw checks of
// the last hours. A timer (every minute; one node of a cluster: the one that runs the chores) emits "monitor.budget"
// when a budget's state changes; the notification rules turn "burning" and "exhausted" into alerts through the
// monitor's channels, once each (server/notifications/rules.ts).
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import type { EventBus } from "../events";
import { silentLogger, type Logger } from "../log";
import type { PublicMonitor } from "../monitors/public";
import { DAY } from "../monitors/rollup-sql";
import { checkRows } from "../monitors/check-rows";
import { countsOf, planSources, sourceMarks } from "../reports/sources";
import { BURN_WINDOWS, budgetOf, type BudgetState, type BurnWindow, type ErrorBudget, type WindowCounts } from "./budget";

export interface ObjectivesOptions {
  db: Db;
  bus: EventBus;
  /** The monitors with an objective (the tick reads these alone: whole monitors cost at 100 000), and each one's type. */
  monitors: { withObjective(): PublicMonitor[]; typeOf(id: number): PublicMonitor["type"] | undefined };
  groups: { descendants(id: number): number[] };
  /** Whether this node runs the once-per-cluster chores (alone: always). */
  leads: () => boolean;
  now?: () => number;
  /** How often budgets are looked at: a minute (real-clock tests shorten it). */
  tickMs?: number;
  log?: Logger;
}

export interface BudgetEvent {
  monitorId: number;
  name: string;
  /** null: not known before (the first look after a start). */
  from: BudgetState | null;
  to: BudgetState;
  budget: ErrorBudget;
  at: number;
}

const LONGEST = BURN_WINDOWS["6h"];

/** Counted checks and failures per monitor over each burn window ending at `now`, from raw checks. */
async function recentCounts(db: Db, ids: number[], now: number): Promise<Map<number, Record<BurnWindow, WindowCounts>>> {
  const out = new Map<number, Record<BurnWindow, WindowCounts>>();
  if (ids.length === 0) return out;
  const windows = Object.entries(BURN_WINDOWS) as [BurnWindow, number][];
  const columns = windows.map(
    ([name, span]) => sql`, sum(CASE WHEN time >= ${now - span} AND NOT maintenance THEN 1 ELSE 0 END) AS ${sql.identifier(`c${name}`)},
      sum(CASE WHEN time >= ${now - span} AND NOT maintenance AND NOT up THEN 1 ELSE 0 END) AS ${sql.identifier(`d${name}`)}`,
  );
  const rows = await db.rows<Record<string, number>>(
    sql`SELECT monitor_id ${sql.join(columns, sql``)} FROM ${checkRows(db.engine, now - LONGEST, now)}
        WHERE monitor_id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) AND time >= ${now - LONGEST} AND time < ${now} GROUP BY monitor_id`,
  );
  for (const r of rows) {
    out.set(Number(r.monitor_id), Object.fromEntries(windows.map(([name]) => [name, { checks: Number(r[`c${name}`]), down: Number(r[`d${name}`]) }])) as Record<BurnWindow, WindowCounts>);
  }
  return out;
}

const zero = (): Record<BurnWindow, WindowCounts> => Object.fromEntries(Object.keys(BURN_WINDOWS).map((w) => [w, { checks: 0, down: 0 }])) as Record<BurnWindow, WindowCounts>;

export function createObjectives({ db, bus, monitors, groups, leads, now = Date.now, tickMs = 60_000, log = silentLogger }: ObjectivesOptions) {
  /** The monitors whose checks count for `m`: itself, or a group's members (nested ones included). */
  function membersOf(m: PublicMonitor): number[] {
    if (m.type !== "group") return [m.id];
    return groups.descendants(m.id).filter((id) => monitors.typeOf(id) !== "group");
  }

  /** The error budget of each of `targets` (monitors with an objective) at `at`. */
  async function budgets(targets: PublicMonitor[], at = now()): Promise<Map<number, ErrorBudget>> {
    const out = new Map<number, ErrorBudget>();
    const byDays = new Map<number, PublicMonitor[]>();
    for (const m of targets) if (m.objective !== null) byDays.set(m.objectiveDays, [...(byDays.get(m.objectiveDays) ?? []), m]);
    for (const [days, list] of byDays) {
      const members = new Map(list.map((m) => [m.id, membersOf(m)]));
      const ids = [...new Set([...members.values()].flat())];
      const { marks, rawSince } = await sourceMarks(db, ids);
      const counts = await countsOf(db, ids, planSources(at - days * DAY, at, marks, rawSince));
      const recent = await recentCounts(db, ids, at);
      for (const m of list) {
        const window: WindowCounts = { checks: 0, down: 0 };
        const burn = zero();
        for (const id of members.get(m.id)!) {
          const c = counts.get(id);
          if (c) (window.checks += c.checks), (window.down += c.down);
          const r = recent.get(id);
          if (r) for (const w of Object.keys(burn) as BurnWindow[]) (burn[w].checks += r[w].checks), (burn[w].down += r[w].down);
        }
        out.set(m.id, budgetOf(m.objective!, days, at, window, burn));
      }
    }
    return out;
  }

  const known = new Map<number, BudgetState>();
  let running: Promise<void> | null = null;

  /** One look at every budget: a state that changed (or is first seen and not ok) is told on the bus. */
  function tick(at = now()): Promise<void> {
    running ??= (async () => {
      try {
        const targets = monitors.withObjective().filter((m) => m.active);
        const found = await budgets(targets, at);
        for (const id of known.keys()) if (!found.has(id)) known.delete(id);
        for (const m of targets) {
          const budget = found.get(m.id)!;
          const from = known.get(m.id) ?? null;
          known.set(m.id, budget.state);
          if (from === budget.state || (from === null && budget.state === "ok")) continue;
          bus.emit("monitor.budget", { monitorId: m.id, name: m.name, from, to: budget.state, budget, at });
        }
      } catch (e) {
        log.error("error budgets failed", { error: String((e as Error)?.stack ?? e) });
      } finally {
        running = null;
      }
    })();
    return running;
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    budgets,
    /** The budget of one monitor or group now (null without an objective). */
    async budgetOf(m: PublicMonitor): Promise<ErrorBudget | null> {
      return m.objective === null ? null : ((await budgets([m])).get(m.id) ?? null);
    },
    tick,
    get running() {
      return timer !== null;
    },
    start() {
      timer ??= setInterval(() => leads() && void tick(), tickMs);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

export type ObjectivesService = ReturnType<typeof createObjectives>;
