import type { Locator } from "@playwright/test";
import { expect, withSession } from "./fixtures";
import { availabilityTrio, check, createMonitor, expectLegend, fill, registerAgent, report, test } from "./helpers";
import { LANGUAGES, tr, toast } from "./i18n";

// The status page in both languages: /status/config against the real server (read back through the API), and the
// public /status signed out — everything up, a monitor down and an agent offline (the open page updates by itself),
// nothing selected, a phone's width, the day bars' tooltip from the keyboard.


/** The test ids of a list's rows, in order. */
const order = (list: Locator) => list.locator(":scope > li").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-testid")));

for (const [locale, m] of LANGUAGES) {
  test.describe(`status page (${locale})`, () => {
    test.use({ locale });

    test("configure: pick and order monitors and agents among many, limits, announcement, save; it persists", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const shop = await createMonitor(vigil, admin, { name: "Shop API", url: target.url("/shop") });
      const search = await createMonitor(vigil, admin, { name: "Search engine", url: target.url("/search") });
      // Many more, paused (no checks): the list shows 100 rows at most and says how many match.
      const fillers: number[] = [];
      for (let i = 1; i <= 105; i++) {
        const res = await vigil.api("POST", "/api/monitors", { name: `Filler ${String(i).padStart(3, "0")}`, url: target.url(`/filler/${i}`), active: false }, admin.token);
        expect(res.status).toBe(201);
        fillers.push(res.body.monitor.id);
      }
      const db = await registerAgent(vigil, admin, "db-1");
      await registerAgent(vigil, admin, "web-1");

      await withSession(page, admin, "/status/config");
      await expect(page.getByTestId("status-config-form")).toBeVisible();
      await expect(page.getByTestId("nav-link-status")).toHaveAttribute("aria-current", "page");
      await expect(page.getByTestId("status-config-url")).toHaveText(`${vigil.url}/status`);
      await expect(page.getByTestId("status-config-open")).toHaveAttribute("href", `${vigil.url}/status`);
      await expect(page.getByTestId("status-monitors-none")).toHaveText(tr(m, "statusConfig.noneSelected"));

      // 107 monitors: 100 rows and the count; a search narrows the list.
      await expect(page.getByTestId("status-monitors-truncated")).toHaveText(tr(m, "picker.truncated", { shown: 100, total: 107 }));
      await expect(page.locator("[data-testid^=status-monitors-option-]")).toHaveCount(100);
      await page.getByTestId("status-monitors-search").fill("shop");
      await expect(page.getByTestId("status-monitors-total")).toHaveText(tr(m, "picker.total", { count: 1 }));
      await page.getByTestId(`status-monitors-option-${shop}`).check();
      await page.getByTestId("status-monitors-search").fill("search engine");
      await page.getByTestId(`status-monitors-option-${search}`).check();
      await page.getByTestId("status-monitors-search").fill("nothing like this");
      await expect(page.getByTestId("status-monitors-no-match")).toHaveText(tr(m, "picker.noMatch", { query: "nothing like this" }));
      await page.getByTestId("status-monitors-search").fill("Filler 007");
      await page.getByTestId(`status-monitors-option-${fillers[6]}`).check();
      expect(await order(page.getByTestId("status-monitors-selected"))).toEqual([`status-monitors-selected-${shop}`, `status-monitors-selected-${search}`, `status-monitors-selected-${fillers[6]}`]);

      // Reorder and remove.
      await page.getByTestId(`status-monitors-up-${search}`).click();
      await page.getByTestId(`status-monitors-remove-${fillers[6]}`).click();
      await expect(page.getByTestId(`status-monitors-option-${fillers[6]}`)).not.toBeChecked();
      expect(await order(page.getByTestId("status-monitors-selected"))).toEqual([`status-monitors-selected-${search}`, `status-monitors-selected-${shop}`]);
      await expect(page.getByTestId(`status-monitors-up-${search}`)).toBeDisabled();
      await expect(page.getByTestId(`status-monitors-down-${shop}`)).toBeDisabled();
      await page.getByTestId(`status-agents-option-${db.id}`).check();

      // Limits as the server has them: a title over 100 characters is refused before anything is sent.
      await page.getByTestId("status-config-title").fill("x".repeat(101));
      await expect(page.getByTestId("status-config-error-title")).toHaveText(tr(m, "statusConfig.errors.titleTooLong", { max: 100 }));
      await page.getByTestId("status-config-save").click();
      await expect(page.getByTestId("status-config-fix-errors")).toHaveText(tr(m, "statusConfig.fixErrors"));
      await expect(page.getByTestId("status-config-title")).toBeFocused();
      expect((await vigil.api("GET", "/api/status/config", undefined, admin.token)).body.config.monitorIds).toEqual([]);

      await page.getByTestId("status-config-title").fill("Acme status");
      await expect(page.getByTestId("status-config-error-title")).toHaveCount(0);
      await page.getByTestId("status-config-description").fill("Our public services.");
      await page.getByTestId("status-config-severity").selectOption("outage");
      await page.getByTestId("status-config-announcement").fill("Database migration in progress");
      await expect(page.getByTestId("status-config-unsaved")).toHaveText(tr(m, "statusConfig.unsaved"));
      await page.getByTestId("status-config-save").click();
      await expect(toast(page, tr(m, "statusConfig.saved"))).toBeVisible();
      await expect(page.getByTestId("status-config-unsaved")).toHaveCount(0);
      expect((await vigil.api("GET", "/api/status/config", undefined, admin.token)).body.config).toMatchObject({
        title: "Acme status",
        description: "Our public services.",
        monitorIds: [search, shop],
        agentIds: [db.id],
        announcement: { severity: "outage", text: "Database migration in progress" },
      });

      // After a reload the form shows what was saved.
      await page.reload();
      await expect(page.getByTestId("status-config-title")).toHaveValue("Acme status");
      await expect(page.getByTestId("status-config-severity")).toHaveValue("outage");
      await expect(page.getByTestId("status-config-announcement")).toHaveValue("Database migration in progress");
      expect(await order(page.getByTestId("status-monitors-selected"))).toEqual([`status-monitors-selected-${search}`, `status-monitors-selected-${shop}`]);
      expect(await order(page.getByTestId("status-agents-selected"))).toEqual([`status-agents-selected-${db.id}`]);

      // Clear takes the announcement off the page.
      await page.getByTestId("status-config-announcement-clear").click();
      await expect(page.getByTestId("status-config-announcement")).toHaveValue("");
      await page.getByTestId("status-config-save").click();
      await expect.poll(async () => (await vigil.api("GET", "/api/status/config", undefined, admin.token)).body.config.announcement).toBeNull();

      // A monitor deleted meanwhile: the server's refusal, translated.
      await page.getByTestId("status-monitors-search").fill("Filler 001");
      await page.getByTestId(`status-monitors-option-${fillers[0]}`).check();
      expect((await vigil.api("DELETE", `/api/monitors/${fillers[0]}`, undefined, admin.token)).status).toBe(200);
      await page.getByTestId("status-config-save").click();
      await expect(toast(page, `${tr(m, "statusConfig.saveFailed")}: ${tr(m, "errors.MONITOR_UNKNOWN")}`)).toBeVisible();
      expect((await vigil.api("GET", "/api/status/config", undefined, admin.token)).body.config.monitorIds).toEqual([search, shop]);
    });

    test("public, signed out: all up, the announcement, no agents section, tooltips from the keyboard, a 390 px phone", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const shop = await createMonitor(vigil, admin, { name: "Checkout API with a rather long name that needs to wrap on a phone", url: target.url("/shop") });
      const search = await createMonitor(vigil, admin, { name: "Search", url: target.url("/search") });
      const saved = await vigil.api(
        "PUT",
        "/api/status/config",
        {
          title: "Acme status",
          description: "Our public services.",
          monitorIds: [shop, search],
          agentIds: [],
          announcement: { severity: "warning", text: "Planned maintenance tonight, 22:00 to 23:00 UTC. <b>not bold</b>" },
        },
        admin.token,
      );
      expect(saved.status).toBe(200);

      await page.clock.install(); // the 30 s refresh is fast-forwarded below
      await page.goto("/status");
      await expect(page).toHaveTitle("Acme status");
      await expect(page.getByTestId("navbar")).toHaveCount(0);
      await expect(page.getByTestId("footer")).toHaveCount(0);
      await expect(page.getByTestId("language-switch")).toBeVisible();
      await expect(page.getByTestId("status-title")).toHaveText("Acme status");
      await expect(page.getByTestId("status-description")).toHaveText("Our public services.");
      const announcement = page.getByTestId("status-announcement");
      await expect(announcement).toHaveAttribute("data-severity", "warning");
      await expect(announcement).toContainText(tr(m, "statusPage.announcement.warning"));
      // Plain text: markup shows as typed.
      await expect(announcement).toContainText("Planned maintenance tonight, 22:00 to 23:00 UTC. <b>not bold</b>");
      await expect(announcement.locator("b")).toHaveCount(0);

      const overall = page.getByTestId("status-overall");
      await expect(overall).toHaveAttribute("data-status", "operational");
      await expect(overall).toHaveText(tr(m, "statusPage.operational"));
      await expect(page.getByTestId("status-agents")).toHaveCount(0);
      await expect(page.getByTestId("status-monitors")).toContainText(tr(m, "statusPage.monitors"));
      expect(await order(page.getByTestId("status-monitors").locator("ul"))).toEqual([`status-monitor-${shop}`, `status-monitor-${search}`]);

      const row = page.getByTestId(`status-monitor-${shop}`);
      await expect(row.getByTestId(`status-monitor-status-${shop}`)).toHaveAttribute("data-status", "up");
      await expect(row.getByTestId(`status-monitor-status-${shop}`)).toHaveText(tr(m, "monitors.status.up"));
      for (const range of ["day", "month", "quarter"]) await expect(row.getByTestId(`status-uptime-${range}-${shop}`)).toHaveText("100%");
      const bars = row.getByTestId("status-bar");
      await expect(bars).toHaveCount(90);
      await expect(bars.last()).toHaveAttribute("data-level", "up");
      await expect(bars.nth(88)).toHaveAttribute("data-level", "none");
      await expect(row.getByTestId(`status-spark-${shop}`).locator("canvas")).toHaveCount(1);

      // Keyboard: a focused bar shows its day; Shift+Tab moves to the day before; Escape closes.
      const tooltip = page.getByTestId("status-tooltip");
      await expect(tooltip).toHaveCount(0);
      await bars.last().focus();
      await expect(tooltip).toBeVisible();
      const today = (await bars.last().getAttribute("aria-label"))!.split(": ")[0];
      expect(today).toContain(String(new Date().getUTCDate()));
      await expect(tooltip).toContainText(today);
      await expect(tooltip).toContainText(tr(m, "statusPage.bar.availability", { value: "100%" }));
      await expect(tooltip).toContainText(tr(m, "statusPage.bar.avg", { value: "" }).trim());
      await page.keyboard.press("Shift+Tab");
      await expect(bars.nth(88)).toBeFocused();
      await expect(tooltip).toContainText(tr(m, "statusPage.bar.noData"));
      await expect(tooltip).not.toContainText(today);
      await page.keyboard.press("Escape");
      await expect(tooltip).toHaveCount(0);

      // The server out of reach: the next refresh fails, the page keeps what it showed and says so.
      await page.route("**/api/status", (route) => route.abort());
      await page.clock.fastForward(30_000);
      await expect(page.getByTestId("status-refresh-failed")).toBeVisible();
      await expect(overall).toHaveAttribute("data-status", "operational");
      await expect(bars).toHaveCount(90);
      await page.unroute("**/api/status");
      await page.clock.fastForward(30_000);
      await expect(page.getByTestId("status-refresh-failed")).toHaveCount(0);

      // A phone: nothing wider than the screen, even with a tooltip at the right edge; all 90 days still there.
      await page.setViewportSize({ width: 390, height: 844 });
      const scrollWidth = () => page.evaluate(() => document.scrollingElement!.scrollWidth);
      await expect(row).toBeVisible();
      expect(await scrollWidth()).toBeLessThanOrEqual(390);
      await expect(bars).toHaveCount(90);
      expect((await bars.first().boundingBox())!.width).toBeGreaterThan(1);
      await bars.last().focus();
      await expect(tooltip).toBeVisible();
      const tip = (await tooltip.boundingBox())!;
      expect(tip.x).toBeGreaterThanOrEqual(0);
      expect(tip.x + tip.width).toBeLessThanOrEqual(390);
      expect(await scrollWidth()).toBeLessThanOrEqual(390);
    });

    test("bar colours: all up, some downtime (85 %) and mostly down (0 %) differ; the legend says what each means", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const { allUp, mostlyUp, allDown } = await availabilityTrio(vigil, admin, target);
      const config = { title: "Acme", description: "", monitorIds: [allUp, mostlyUp, allDown], agentIds: [], announcement: null };
      expect((await vigil.api("PUT", "/api/status/config", config, admin.token)).status).toBe(200);
      await page.goto("/status");
      const today = (id: number) => page.getByTestId(`status-bars-${id}`).getByTestId("status-bar").last();
      await expect(today(allUp)).toHaveAttribute("data-level", "up");
      await expect(today(mostlyUp)).toHaveAttribute("data-level", "degraded");
      await expect(today(mostlyUp)).toHaveAttribute("aria-label", new RegExp(`${tr(m, "statusPage.bar.availability", { value: "85%" })}$`));
      await expect(today(allDown)).toHaveAttribute("data-level", "down");
      const fills = [await fill(today(allUp)), await fill(today(mostlyUp)), await fill(today(allDown))];
      expect(new Set(fills).size).toBe(3);
      await expect(page.getByTestId(`status-bars-${allUp}`).getByTestId("status-bar").first()).toHaveAttribute("data-level", "none");
      await expectLegend(page.getByTestId("status-legend"), m);
    });

    test("nothing selected: a friendly message and no sections", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await createMonitor(vigil, admin, { name: "Not on the page", url: "http://127.0.0.1:9/" });
      await page.goto("/status");
      await expect(page.getByTestId("status-empty")).toContainText(tr(m, "statusPage.empty"));
      await expect(page.getByTestId("status-title")).toHaveText(tr(m, "statusPage.title"));
      await expect(page).toHaveTitle(tr(m, "statusPage.title"));
      for (const id of ["status-overall", "status-monitors", "status-agents", "status-announcement"]) await expect(page.getByTestId(id)).toHaveCount(0);
      await expect(page.locator("body")).not.toContainText("Not on the page");
    });
  });
}

test("a monitor goes down and an agent goes offline: the open page shows it by itself (both languages)", async ({ browser, vigil, target }) => {
  test.setTimeout(90_000); // an agent is offline only after 30 s of silence
  const admin = await vigil.register("alice");
  const shop = await createMonitor(vigil, admin, { name: "Shop API", url: target.url("/shop"), retries: 0 });
  const search = await createMonitor(vigil, admin, { name: "Search", url: target.url("/search"), retries: 0 });
  const quiet = await registerAgent(vigil, admin, "db-1");
  const chatty = await registerAgent(vigil, admin, "web-1");
  const silent = await registerAgent(vigil, admin, "cache-1"); // never reports: connecting, not offline
  await report(vigil, quiet, "db-1");
  await report(vigil, chatty, "web-1");
  const config = { title: "Acme", description: "", monitorIds: [shop, search], agentIds: [quiet.id, chatty.id, silent.id], announcement: null };
  expect((await vigil.api("PUT", "/api/status/config", config, admin.token)).status).toBe(200);

  const keepAlive = setInterval(() => void report(vigil, chatty, "web-1", 1).catch(() => {}), 5_000);
  const contexts = await Promise.all(LANGUAGES.map(([locale]) => browser.newContext({ locale })));
  try {
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    for (const page of pages) {
      await page.clock.install(); // the 30 s refresh is fast-forwarded below
      await page.goto(`${vigil.url}/status`);
      await expect(page.getByTestId("status-overall")).toHaveAttribute("data-status", "operational");
      await expect(page.getByTestId(`status-agent-status-${quiet.id}`)).toHaveAttribute("data-status", "online");
      await expect(page.getByTestId(`status-agent-cpu-${quiet.id}`)).toContainText("%");
      await expect(page.getByTestId(`status-agent-status-${silent.id}`)).toHaveAttribute("data-status", "connecting");
    }

    target.set("/search", 500);
    expect((await check(vigil, admin, search)).body.monitor.status).toBe("down");
    await expect
      .poll(async () => (await vigil.api("GET", "/api/status")).body.page.agents.find((a: { id: number }) => a.id === quiet.id)?.status, { timeout: 50_000, intervals: [1000] })
      .toBe("offline");

    for (const [i, [, m]] of LANGUAGES.entries()) {
      const page = pages[i];
      const overall = page.getByTestId("status-overall");
      // The next refresh (a browser may keep the previous reply up to 5 s, hence the retries).
      await expect(async () => {
        await page.clock.fastForward(30_000);
        await expect(page.getByTestId("status-offline-list")).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 20_000 });
      await expect(overall).toHaveAttribute("data-status", "degraded");
      await expect(overall).toContainText(tr(m, "statusPage.degraded"));
      await expect(page.getByTestId("status-down-list")).toHaveText(tr(m, "statusPage.downList", { names: "Search" }));
      await expect(page.getByTestId("status-offline-list")).toHaveText(tr(m, "statusPage.offlineList", { names: "db-1" }));
      await expect(page.getByTestId(`status-monitor-status-${search}`)).toHaveAttribute("data-status", "down");
      await expect(page.getByTestId(`status-monitor-status-${search}`)).toHaveText(tr(m, "monitors.status.down"));
      await expect(page.getByTestId(`status-monitor-status-${shop}`)).toHaveAttribute("data-status", "up");
      // Up at creation, down since (and any check the interval added): some downtime or mostly down, never "up".
      await expect(page.getByTestId(`status-bars-${search}`).getByTestId("status-bar").last()).toHaveAttribute("data-level", /^(degraded|down)$/);
      await expect(page.getByTestId(`status-agent-status-${quiet.id}`)).toHaveText(tr(m, "agents.status.offline"));
      await expect(page.getByTestId(`status-agent-last-${quiet.id}`)).toContainText(tr(m, "statusPage.lastReport"));
      await expect(page.getByTestId(`status-agent-status-${chatty.id}`)).toHaveAttribute("data-status", "online");
      await expect(page.getByTestId(`status-agent-status-${silent.id}`)).toHaveAttribute("data-status", "connecting");
    }
  } finally {
    clearInterval(keepAlive);
    await Promise.all(contexts.map((c) => c.close()));
  }
});
