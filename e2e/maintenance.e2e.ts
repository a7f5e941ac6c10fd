import { expect, withSession } from "./fixtures";
import { createMonitor, test } from "./helpers";
import { LANGUAGES, tr, toast } from "./i18n";

// Maintenance in both languages, against the real server: a weekly window made on /maintenance with its preview in
// the window's zone, "start maintenance now" on a monitor's page (blue status, end now), the list's filter and a
// phone's width, and what the public status page says about it.

for (const [locale, m] of LANGUAGES) {
  test.describe(`maintenance (${locale})`, () => {
    test.use({ locale, timezoneId: "Asia/Shanghai" });

    test("a weekly window made on /maintenance: targets, zone, preview in both zones, saved, listed; on a phone too", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const shop = await createMonitor(vigil, admin, { name: "Shop API", url: target.url("/shop"), active: false });
      await withSession(page, admin, "/dashboard");
      await page.getByTestId("nav-link-maintenance").first().click();
      await expect(page).toHaveURL(/\/maintenance$/);
      await expect(page.getByTestId("maintenance-empty")).toHaveText(tr(m, "maintenance.empty"));

      await page.getByTestId("maintenance-create-button").click();
      await expect(page.getByRole("heading", { name: tr(m, "maintenance.createTitle") })).toBeVisible();
      // Saving at once: what is missing is said.
      await page.getByTestId("maintenance-save").click();
      await expect(page.getByTestId("maintenance-error-title")).toHaveText(tr(m, "maintenance.errors.titleRequired"));
      await expect(page.getByTestId("maintenance-error-targets")).toHaveText(tr(m, "maintenance.errors.targetsRequired"));

      await page.getByTestId("maintenance-title").fill("Database upgrade");
      await page.getByTestId("maintenance-description").fill("Orders may be slow.");
      await page.getByTestId("maintenance-monitors-search").fill("shop");
      await page.getByTestId(`maintenance-monitors-option-${shop}`).check();
      await page.getByTestId("maintenance-kind").selectOption("weekly");
      await expect(page.getByTestId("maintenance-weekday-7")).toHaveAttribute("aria-pressed", "true");
      // Wednesdays and Sundays, unless today is one of them in Berlin (the window, 02:00 for two hours, might be on
      // now and no longer "upcoming"): then Tuesdays and Fridays.
      const berlinToday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(new Intl.DateTimeFormat("en-US", { timeZone: "Europe/Berlin", weekday: "short" }).format(new Date())) + 1;
      const days = [3, 7].includes(berlinToday) ? [2, 5] : [3, 7];
      const weekday = (day: number) => page.getByTestId(`maintenance-weekday-${day}`);
      if (!days.includes(7)) await weekday(7).click(); // Sunday is chosen to begin with
      for (const day of days) if (day !== 7) await weekday(day).click();
      await page.getByTestId("maintenance-time").fill("02:00");
      await page.getByTestId("maintenance-duration").fill("120");
      await page.getByTestId("maintenance-timezone").selectOption("Europe/Berlin");

      // Five occurrences at 02:00 in Berlin, and the same instants in the browser's zone (Shanghai: 08:00 or 09:00).
      const rows = page.getByTestId("maintenance-preview-row");
      await expect(rows).toHaveCount(5);
      for (const cell of await page.getByTestId("maintenance-preview-zone").all()) await expect(cell).toContainText("02:00");
      for (const cell of await page.getByTestId("maintenance-preview-local").all()) await expect(cell).toContainText(/0[89]:00/);

      await page.getByTestId("maintenance-save").click();
      await expect(toast(page, tr(m, "maintenance.created"))).toBeVisible();
      await expect(page).toHaveURL(/\/maintenance$/);
      const { body } = await vigil.api("GET", "/api/maintenance", undefined, admin.token);
      expect(body.windows).toHaveLength(1);
      const w = body.windows[0];
      expect(w).toMatchObject({ title: "Database upgrade", description: "Orders may be slow.", scope: "targets", monitorIds: [shop], state: "upcoming" });
      expect(w.schedule).toMatchObject({ kind: "weekly", weekdays: days, time: "02:00", durationMinutes: 120, timezone: "Europe/Berlin" });
      const row = page.getByTestId(`maintenance-row-${w.id}`);
      await expect(row.getByTestId("maintenance-state")).toHaveText(tr(m, "maintenance.states.upcoming"));
      await expect(row.getByTestId("maintenance-schedule")).toContainText("Europe/Berlin");
      await expect(page.getByTestId("maintenance-filter-upcoming")).toContainText("1");

      // Edit keeps what was saved.
      await row.getByTestId("maintenance-edit").click();
      await expect(page.getByTestId("maintenance-title")).toHaveValue("Database upgrade");
      await expect(page.getByTestId("maintenance-timezone")).toHaveValue("Europe/Berlin");
      await expect(weekday(days[0]!)).toHaveAttribute("aria-pressed", "true");
      await page.getByTestId("maintenance-back").click();

      await page.setViewportSize({ width: 390, height: 800 });
      await expect(row.getByTestId("maintenance-title")).toBeVisible();
      // Polled: a toast laid out for the wider window moves in a frame later.
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // Delete, confirmed.
      await row.getByTestId("maintenance-delete").click();
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(toast(page, tr(m, "maintenance.deleted"))).toBeVisible();
      await expect(page.getByTestId("maintenance-empty")).toBeVisible();
    });

    test("start maintenance now on a monitor's page: blue everywhere, nothing else changes, end now", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const shop = await createMonitor(vigil, admin, { name: "Shop API", url: target.url("/shop") });
      await withSession(page, admin, `/monitors/${shop}`);
      const panel = page.getByTestId("maintenance-panel");
      await expect(panel.getByTestId("maintenance-panel-none")).toHaveText(tr(m, "maintenance.panel.none"));
      await panel.getByTestId("maintenance-start-30").click();
      await expect(toast(page, tr(m, "maintenance.started"))).toBeVisible();
      await expect(panel.getByTestId("maintenance-panel-current")).toContainText(tr(m, "maintenance.quickTitle", { name: "Shop API" }));
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "maintenance");
      await expect(page.getByTestId("monitor-status")).toHaveText(tr(m, "monitors.status.maintenance"));

      // The list: the row is blue and the filter finds it.
      await page.goto("/monitors?status=maintenance");
      await expect(page.getByTestId(`monitor-row-${shop}`)).toBeVisible();
      await expect(page.getByTestId("monitors-filter-maintenance")).toContainText("1");
      // The dashboard counts it apart.
      await page.goto("/dashboard");
      await expect(page.getByTestId("dashboard-maintenance")).toHaveText("1");

      await page.goto(`/monitors/${shop}`);
      await panel.getByTestId("maintenance-panel-end").click();
      await expect(toast(page, tr(m, "maintenance.ended"))).toBeVisible();
      await expect(panel.getByTestId("maintenance-panel-current")).toHaveCount(0);
      await expect(page.getByTestId("monitor-status")).not.toHaveAttribute("data-status", "maintenance");
      const { body } = await vigil.api("GET", "/api/maintenance", undefined, admin.token);
      expect(body.windows[0]).toMatchObject({ state: "ended", monitorIds: [shop] });
    });

    test("the public status page shows maintenance in progress, in blue, with its description", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const shop = await createMonitor(vigil, admin, { name: "Shop API", url: target.url("/shop") });
      await vigil.api("PUT", "/api/status/config", { title: "Acme status", description: "", monitorIds: [shop], agentIds: [], announcement: null }, admin.token);
      const started = await vigil.api("POST", "/api/maintenance/start", { title: "Payment provider switch", description: "Checkout may fail.", monitorIds: [shop], minutes: 60 }, admin.token);
      expect(started.status).toBe(201);
      await page.goto("/status");
      const section = page.getByTestId("status-maintenance");
      await expect(section.getByRole("heading", { name: tr(m, "statusPage.maintenance.title") })).toBeVisible();
      const item = section.getByTestId(`status-maintenance-${started.body.window.id}`);
      await expect(item).toHaveAttribute("data-state", "active");
      await expect(item).toContainText("Payment provider switch");
      await expect(item).toContainText("Checkout may fail.");
      await expect(item).toContainText(tr(m, "statusPage.maintenance.affects", { names: "Shop API" }));
      await expect(page.getByTestId(`status-monitor-status-${shop}`)).toHaveAttribute("data-status", "maintenance");
      await expect(page.getByTestId("status-overall")).toHaveAttribute("data-status", "operational");
    });
  });
}

test("/maintenance needs a session", async ({ page, vigil }) => {
  await page.goto(`${vigil.url}/maintenance`);
  await expect(page).toHaveURL(/\/login/);
});
