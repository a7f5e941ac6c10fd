// The maintenance and settings sections against the Kuma 2.5.3 sample: both windows with their schedule, time zone
// and monitors; re-import updates in place; strategies Vigil cannot express are skipped with the reason; the time
// zone comes across and the retention says which flag to give.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Db } from "../../db/database";
import { testDb } from "../../db/test-db";
import { occurrencesAfter, scheduleError } from "../../maintenance/schedule";
import { createMaintenanceStore } from "../../maintenance/store";
import { createNotificationStore } from "../../notifications/store";
import { maintenanceSection } from "./maintenance";
import { settingsSection } from "./settings";
import { fixtureSource, manifest, runSections, standInMonitors } from "./test-source";

let db: Db;
beforeEach(async () => {
  db = await testDb();
});
afterEach(async () => {
  await db.close();
});

const berlin = (wall: string) => Temporal.PlainDateTime.from(wall).toZonedDateTime("Europe/Berlin").epochMilliseconds;

describe("Kuma maintenance", () => {
  test("the single and the weekly window with their schedule, time zone and monitors; again: updated in place", async () => {
    const source = fixtureSource();
    try {
      const monitors = await standInMonitors(db, source);
      const items = await runSections(db, source, [maintenanceSection]);
      expect(items.map((i) => [i.name, i.action])).toEqual(manifest.maintenances.map((m) => [m.title, "create"]));
      expect(items[1]!.notes.map((n) => n.text).join(" ")).toContain('Kuma showed it on "northwind", "internal-ops"');

      const windows = await createMaintenanceStore(db).all();
      expect(windows).toHaveLength(2);
      const [single, weekly] = manifest.maintenances;
      const once = windows.find((w) => w.title === single!.title)!;
      expect(once).toMatchObject({ description: single!.description, scope: "targets", schedule: { kind: "once", timezone: single!.timezone, startsAt: berlin(single!.start_date), endsAt: berlin(single!.end_date!) } });
      expect(once.schedule.startsAt).toBe(Date.UTC(2026, 11, 12, 21, 0));
      expect(once.monitorIds.toSorted()).toEqual(single!.monitors.map((m) => monitors.get(m.id)!).toSorted());

      const week = windows.find((w) => w.title === weekly!.title)!;
      expect(week.schedule).toMatchObject({ kind: "weekly", timezone: "Europe/Berlin", time: weekly!.start_time, weekdays: weekly!.weekdays, durationMinutes: weekly!.duration_s! / 60, activeFrom: berlin(weekly!.start_date), activeUntil: null });
      expect(week.monitorIds.toSorted()).toEqual(weekly!.monitors.map((m) => monitors.get(m.id)!).toSorted());
      for (const w of windows) expect(scheduleError(w.schedule)).toBeNull();
      // Tuesday 1 December 2026, 03:00 in Berlin (02:00 UTC), for 90 minutes.
      expect(occurrencesAfter(week.schedule, Date.UTC(2026, 10, 30), 1)).toEqual([{ start: Date.UTC(2026, 11, 1, 2, 0), end: Date.UTC(2026, 11, 1, 3, 30) }]);

      const again = await runSections(db, source, [maintenanceSection]);
      expect(again.map((i) => i.action)).toEqual(["update", "update"]);
      const after = await createMaintenanceStore(db).all();
      expect(after.map((w) => [w.id, w.title, w.monitorIds])).toEqual(windows.map((w) => [w.id, w.title, w.monitorIds]));
    } finally {
      source.close();
    }
  });

  test("every strategy Vigil can express comes across; the others, paused and monitor-less ones are skipped with the reason", async () => {
    const source = fixtureSource((k) => {
      const add = (id: number, title: string, columns: string) => {
        k.run(`INSERT INTO maintenance (id, title, description, user_id, active, strategy, start_date, end_date, start_time, end_time, weekdays, days_of_month, interval_day, cron, timezone, duration)
               SELECT ${id}, '${title}', '', 1, active, strategy, start_date, end_date, start_time, end_time, weekdays, days_of_month, interval_day, cron, timezone, duration FROM maintenance WHERE id = 2`);
        k.run(`UPDATE maintenance SET ${columns} WHERE id = ${id}`);
        k.run(`INSERT INTO monitor_maintenance (monitor_id, maintenance_id) VALUES (4, ${id})`);
      };
      add(3, "Monthly", "strategy = 'recurring-day-of-month', days_of_month = '[1, 15, \"lastDay1\", \"lastDay2\"]', weekdays = '[]'");
      add(4, "Daily", "strategy = 'recurring-interval', interval_day = 1, timezone = 'SAME_AS_SERVER'");
      add(5, "Every third day", "strategy = 'recurring-interval', interval_day = 3");
      add(6, "Cron", "strategy = 'cron', cron = '30 1 * * 0', duration = 3600, timezone = 'Asia/Shanghai'");
      add(7, "Manual on", "strategy = 'manual', start_date = NULL");
      add(8, "Paused", "active = 0");
      add(9, "Bad cron", "strategy = 'cron', cron = 'not a cron'");
      add(11, "Instant dates", "strategy = 'single', start_date = '2026-12-01T09:00:00.000Z', end_date = '2026-12-01T10:30:00.000Z'");
      k.run(`INSERT INTO maintenance (id, title, description, user_id, active, strategy, interval_day, timezone, start_date, end_date) VALUES (10, 'Pages only', '', 1, 1, 'single', 1, 'UTC', '2026-12-01 10:00', '2026-12-01 11:00')`);
    });
    try {
      await standInMonitors(db, source);
      const now = Date.UTC(2026, 10, 27, 12, 0);
      const items = await runSections(db, source, [maintenanceSection], now);
      const item = (title: string) => items.find((i) => i.name === title)!;
      expect(item("Every third day")).toMatchObject({ action: "skip", notes: [{ text: "It recurs every 3 days, which Vigil's schedules cannot express (daily, weekly, monthly or cron)." }] });
      expect(item("Paused")).toMatchObject({ action: "skip", notes: [{ text: "It is paused in Kuma, and Vigil's windows cannot be paused." }] });
      expect(item("Bad cron").action).toBe("skip");
      expect(item("Bad cron").notes[0]!.text).toStartWith("Its schedule is not one Vigil accepts: Invalid cron expression");
      expect(item("Pages only").action).toBe("skip");
      expect(item("Pages only").notes[0]!.text).toContain("covers no monitors");
      expect(item("Monthly").notes.map((n) => n.text)).toContain('"2 days before the last day" does not come across (Vigil has the last day only).');
      expect(item("Daily").notes.map((n) => n.text)).toContain("Its time zone is Kuma's server time zone, Europe/Berlin.");

      const windows = await createMaintenanceStore(db).all();
      const schedule = (title: string) => windows.find((w) => w.title === title)!.schedule;
      expect(schedule("Monthly")).toMatchObject({ kind: "monthly", time: "03:00", monthDays: [-1, 1, 15], durationMinutes: 90 });
      expect(schedule("Daily")).toMatchObject({ kind: "daily", time: "03:00", timezone: "Europe/Berlin", durationMinutes: 90 });
      expect(schedule("Cron")).toMatchObject({ kind: "cron", cron: "30 1 * * 0", timezone: "Asia/Shanghai", durationMinutes: 60 });
      expect(schedule("Manual on")).toMatchObject({ kind: "manual", startsAt: now, endsAt: null });
      expect(schedule("Instant dates")).toMatchObject({ kind: "once", startsAt: Date.UTC(2026, 11, 1, 9, 0), endsAt: Date.UTC(2026, 11, 1, 10, 30) });
      expect(windows.map((w) => w.title).toSorted()).toEqual(["Cron", "Daily", "Database upgrade to PG 17", "Instant dates", "Manual on", "Monthly", "Weekly patch window"]);
      for (const w of windows) expect(scheduleError(w.schedule)).toBeNull();

      // Imported again later: the manual window keeps the start it was given.
      await runSections(db, source, [maintenanceSection], now + 3_600_000);
      expect((await createMaintenanceStore(db).all()).find((w) => w.title === "Manual on")!.schedule.startsAt).toBe(now);
    } finally {
      source.close();
    }
  });
});

describe("Kuma settings", () => {
  test("the time zone comes across (the rest of the stored settings kept); retention and others say what to do instead, without secrets", async () => {
    const source = fixtureSource();
    try {
      await db.orm.insert(db.t.settings).values({ key: "notifications", value: JSON.stringify({ language: "en-US", timeZone: "UTC" }) });
      const items = await runSections(db, source, [settingsSection]);
      expect(items.find((i) => i.sourceId === "serverTimezone")).toMatchObject({ action: "update", name: "Time zone" });
      const retention = items.find((i) => i.sourceId === "keepDataPeriodDays")!;
      expect(retention.action).toBe("skip");
      expect(retention.notes[0]!.text).toContain("--raw-retention-days 90");
      for (const key of Object.keys(manifest.settings_changed).filter((k) => k !== "serverTimezone")) {
        expect(items.find((i) => i.sourceId === key)?.action).toBe("skip");
      }
      expect(items.find((i) => i.sourceId === "jwtSecret")).toBeUndefined();
      expect(JSON.stringify(items)).not.toContain(String(manifest.settings_changed.steamAPIKey));
      const settings = await createNotificationStore(db).getSettings();
      expect(settings).toMatchObject({ timeZone: "Europe/Berlin", language: "en-US" });
    } finally {
      source.close();
    }
  });
});
