// Maintenance windows for the benchmarks: `count` windows over monitors 1…n, each naming an equal slice of them; every
// other one is in progress now (until ended), the rest recur (daily, weekly, cron) at times that are not now.
import type { Db } from "../../server/db/database";
import { createMaintenanceStore } from "../../server/maintenance/store";
import type { Schedule } from "../../server/maintenance/schedule";

export async function insertWindows(db: Db, n: number, count: number, now = Date.now()): Promise<{ inMaintenance: number }> {
  const store = createMaintenanceStore(db, () => now);
  const slice = Math.max(1, Math.ceil(n / count));
  // Twelve hours from now, in UTC: a recurring window that is not in progress while the benchmark runs.
  const later = new Date(now + 12 * 3_600_000);
  const time = `${String(later.getUTCHours()).padStart(2, "0")}:00`;
  const none = { startsAt: null, endsAt: null, time: null, weekdays: [], monthDays: [], cron: null, durationMinutes: null, timezone: "UTC", activeFrom: null, activeUntil: null };
  let inMaintenance = 0;
  for (let i = 0; i < count; i++) {
    const first = i * slice + 1;
    const monitorIds: number[] = [];
    for (let id = first; id < first + slice && id <= n; id++) monitorIds.push(id);
    if (!monitorIds.length) break;
    const kind = i % 2 === 0 ? "manual" : (["daily", "weekly", "cron"] as const)[i % 3];
    const schedule: Schedule =
      kind === "manual" ? { ...none, kind, startsAt: now }
      : kind === "cron" ? { ...none, kind, cron: `0 ${later.getUTCHours()} * * *`, durationMinutes: 30 }
      : { ...none, kind, time, weekdays: kind === "weekly" ? [1, 2, 3, 4, 5, 6, 7] : [], durationMinutes: 30 };
    await store.create({ title: `bench window ${i + 1}`, description: "", scope: "targets", monitorIds, agentIds: [], schedule });
    if (kind === "manual") inMaintenance += monitorIds.length;
  }
  return { inMaintenance };
}
