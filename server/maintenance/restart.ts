// What changed while nobody watched: a window that ended while the server was stopped (or while the cluster node that
// checked its monitors was gone) took them out of maintenance with nobody there to announce it, so no "fresh down"
// (or recovery) would ever be sent for them. The monitors whose latest stored check was made in maintenance, but which
// no window covers now, are the ones that left; asked at start-up and when a node takes monitors over.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { newestChecks } from "../monitors/check-rows";
import type { MonitorService } from "../monitors/service";

/**
 * Monitors that left maintenance unseen. Only those the notification rules would act on are
 * looked up (down ones, and up ones with a down alert sent before their window), one indexed row each.
 */
export async function monitorsLeftUnseen(db: Db, monitors: MonitorService, inMaintenance: (id: number) => boolean): Promise<number[]> {
  const { notificationAlerts } = db.t;
  const alerted = new Set(
    (
      await db.orm
        .select({ id: notificationAlerts.targetId })
        .from(notificationAlerts)
        .where(and(eq(notificationAlerts.targetType, "monitor"), eq(notificationAlerts.condition, "down")))
    ).map((r) => r.id),
  );
  const candidates = monitors.store
    .all()
    .filter((e) => e.fields.active && !inMaintenance(e.id) && (e.state.status === "down" || (e.state.status === "up" && alerted.has(e.id))))
    .map((e) => e.id);
  const lastInMaintenance = async (id: number) =>
    Boolean((await db.rows<{ maintenance: boolean | number }>(sql`SELECT maintenance FROM ${newestChecks(db.engine, id, 1)} AS c`))[0]?.maintenance);
  const left: number[] = [];
  // A few at a time: on PostgreSQL each is a round trip (a node taking monitors over waits for this).
  for (let i = 0; i < candidates.length; i += 32) {
    const chunk = candidates.slice(i, i + 32);
    const flags = await Promise.all(chunk.map(lastInMaintenance));
    left.push(...chunk.filter((_, j) => flags[j]));
  }
  return left;
}
