// What changed while the server was stopped: a window that ended meanwhile took its monitors out of maintenance with
// nobody there to announce it, so no "fresh down" (or recovery) would ever be sent for them. At start-up the monitors
// whose latest stored check was made in maintenance, but which no window covers now, are the ones that left.
import { and, desc, eq } from "drizzle-orm";
import { first, type Db } from "../db/database";
import type { MonitorService } from "../monitors/service";

/**
 * Monitors that left maintenance while the server was stopped. Only those the notification rules would act on are
 * looked up (down ones, and up ones with a down alert sent before their window), one indexed row each.
 */
export async function monitorsLeftWhileStopped(db: Db, monitors: MonitorService, inMaintenance: (id: number) => boolean): Promise<number[]> {
  const { checkResults, notificationAlerts } = db.t;
  const alerted = new Set(
    (
      await db.orm
        .select({ id: notificationAlerts.targetId })
        .from(notificationAlerts)
        .where(and(eq(notificationAlerts.targetType, "monitor"), eq(notificationAlerts.condition, "down")))
    ).map((r) => r.id),
  );
  const left: number[] = [];
  for (const entry of monitors.store.all()) {
    if (!entry.fields.active || inMaintenance(entry.id)) continue;
    const status = entry.state.status;
    if (!(status === "down" || (status === "up" && alerted.has(entry.id)))) continue;
    const last = await first(
      db.orm.select({ maintenance: checkResults.maintenance }).from(checkResults).where(eq(checkResults.monitorId, entry.id)).orderBy(desc(checkResults.time)).limit(1),
    );
    if (last?.maintenance) left.push(entry.id);
  }
  return left;
}
