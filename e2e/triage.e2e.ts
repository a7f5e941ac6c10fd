import type { Page } from "@playwright/test";
import { expect, withSession } from "./fixtures";
import { check, createMonitor, registerAgent, report, test } from "./helpers";

// Triage at a glance: the dashboard's list of what is down or offline, neutral zero counts, tiles that open the
// filtered lists, down monitors first, the ?status= filters, and the lists as cards on a phone.

/** No horizontal scrolling: the page is no wider than the viewport. */
async function expectNoSideScroll(page: Page) {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
}

for (const lang of [
  {
    locale: "zh-CN",
    allClear: "一切正常：没有故障的监控，也没有离线的客户端。",
    problems: "需要处理",
    downMonitor: "监控故障",
    reason: "状态码 500，期望 2xx",
    downFor: /^已持续 \d+秒$/,
    down: "故障",
    all: "全部",
    filterEmpty: "没有处于此状态的监控。",
    responseTime: "响应时间",
    lastChecked: "上次检查",
    email: "邮箱",
    strip: "最近 50 次检查",
    statusDown: "故障",
    refused: "连接被拒绝",
  },
  {
    locale: "en-US",
    allClear: "Everything is up: no monitor is down and no agent is offline.",
    problems: "Needs attention",
    downMonitor: "Monitor down",
    reason: "Status 500, expected 2xx",
    downFor: /^down for \d+s$/,
    down: "Down",
    all: "All",
    filterEmpty: "No monitor has this status.",
    responseTime: "Response time",
    lastChecked: "Last checked",
    email: "Email",
    strip: "Last 50 checks",
    statusDown: "Down",
    refused: "Connection refused",
  },
]) {
  test.describe(`triage (${lang.locale})`, () => {
    test.use({ locale: lang.locale });

    test("the dashboard lists what is down above the counts; zero counts are neutral; a tile opens the filtered list", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/dashboard");
      await expect(page.getByTestId("dashboard-all-clear")).toHaveText(lang.allClear);
      await expect(page.getByTestId("dashboard-down-tile")).toHaveAttribute("data-tone", "neutral");

      const healthy = await createMonitor(vigil, admin, { name: "Alpha site", url: target.url("/ok"), retries: 0 });
      target.set("/broken", 500);
      const broken = await createMonitor(vigil, admin, { name: "Zeta API", url: target.url("/broken"), retries: 0 });

      // Pushed: the problem appears without a reload, above the counts.
      const problem = page.getByTestId("problem-monitor");
      await expect(problem).toHaveCount(1, { timeout: 10_000 });
      await expect(page.getByTestId("dashboard-all-clear")).toHaveCount(0);
      await expect(page.getByTestId("dashboard-problems")).toContainText(lang.problems);
      await expect(problem).toHaveAttribute("data-id", String(broken));
      await expect(problem).toContainText(lang.downMonitor);
      await expect(problem.getByTestId("problem-name")).toHaveText("Zeta API");
      await expect(problem.getByTestId("problem-reason")).toHaveText(lang.reason);
      await expect(problem.getByTestId("problem-since")).toHaveText(lang.downFor);
      // The moment itself, with its zone, on hover.
      await expect(problem.getByTestId("problem-since").locator("time")).toHaveAttribute("title", /UTC \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\)$/);
      const listTop = await page.getByTestId("dashboard-problems").boundingBox();
      const countsTop = await page.getByTestId("dashboard-monitors").boundingBox();
      expect(listTop!.y).toBeLessThan(countsTop!.y);

      await expect(page.getByTestId("dashboard-down")).toHaveText("1");
      await expect(page.getByTestId("dashboard-down-tile")).toHaveAttribute("data-tone", "red");
      await expect(page.getByTestId("dashboard-pending-tile")).toHaveAttribute("data-tone", "neutral");
      await expect(page.getByTestId("dashboard-agents-offline-tile")).toHaveAttribute("data-tone", "neutral");

      // The Down tile opens the list filtered to down monitors.
      await page.getByTestId("dashboard-down-tile").click();
      await expect(page).toHaveURL(/\/monitors\?status=down$/);
      await expect(page.getByTestId(`monitor-row-${broken}`)).toBeVisible();
      await expect(page.getByTestId(`monitor-row-${healthy}`)).toHaveCount(0);
      await expect(page.getByTestId("monitors-filter-down")).toHaveAttribute("aria-current", "page");
      await expect(page.getByTestId("monitors-filter-down")).toContainText(`${lang.down}1`);
      await expect(page.getByTestId(`monitor-reason-${broken}`)).toHaveText(lang.reason);

      // Paused has none: the filter says so. All: both, the down one first though its name sorts last.
      await page.getByTestId("monitors-filter-paused").click();
      await expect(page).toHaveURL(/\/monitors\?status=paused$/);
      await expect(page.getByTestId("monitors-filter-empty")).toHaveText(lang.filterEmpty);
      await page.getByTestId("monitors-filter-all").click();
      await expect(page).toHaveURL(/\/monitors$/);
      const rows = page.locator("[data-testid^=monitor-row-]");
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toHaveAttribute("data-testid", `monitor-row-${broken}`);

      // It recovers: it leaves the top, and the dashboard is calm again.
      target.set("/broken", 200);
      await page.getByTestId(`monitor-check-${broken}`).click();
      await expect(rows.first()).toHaveAttribute("data-testid", `monitor-row-${healthy}`);
      await page.goto("/dashboard");
      await expect(page.getByTestId("dashboard-all-clear")).toHaveText(lang.allClear);
    });

    test("the last 50 checks show as a strip on the detail (the row: its hour in the heartbeat), with each check's facts, and grow with new checks", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const id = await createMonitor(vigil, admin, { name: "Flaky", url: target.url("/flaky"), retries: 0 }); // 1st check: up
      target.set("/flaky", 500);
      await check(vigil, admin, id); // 2nd: down
      target.set("/flaky", 200);
      await check(vigil, admin, id); // 3rd: up
      await withSession(page, admin, "/monitors");
      // The row shows the 24-hour heartbeat instead (e2e/monitor-list.e2e.ts): this hour, 2 of 3 checks up.
      const thisHour = page.getByTestId(`monitor-heartbeat-${id}`).getByTestId("heartbeat-bar").last();
      await expect(thisHour).toHaveAttribute("data-level", "degraded");
      await expect(thisHour).toHaveAttribute("data-checks", "3");

      // A check from the list lands in the strip at once.
      await page.getByTestId(`monitor-check-${id}`).click();
      await expect(thisHour).toHaveAttribute("data-checks", "4");

      await page.getByTestId(`monitor-link-${id}`).click();
      const card = page.getByTestId("monitor-strip-card");
      await expect(card).toContainText(lang.strip);
      const detailCells = page.getByTestId("monitor-strip").getByTestId("check-cell");
      await expect(detailCells).toHaveCount(4);
      // Keyboard: every cell can take focus and names its facts.
      await detailCells.nth(1).focus();
      await expect(detailCells.nth(1)).toBeFocused();
      await expect(detailCells.nth(1)).toHaveAttribute("aria-label", new RegExp(lang.reason));
      await page.getByTestId("monitor-check-button").click();
      await expect(detailCells).toHaveCount(5);
    });

    test("a monitor whose every check failed shows its failures, not 'no data'", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const id = await createMonitor(vigil, admin, { name: "Nobody home", url: "http://127.0.0.1:9/", retries: 0 });
      await check(vigil, admin, id);
      await withSession(page, admin, `/monitors/${id}`);
      const cells = page.getByTestId("monitor-strip").getByTestId("check-cell");
      await expect(cells).toHaveCount(2);
      expect(await cells.evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))).toEqual(["down", "down"]);
      await expect(cells.first()).toHaveAttribute("title", new RegExp(lang.refused));
      await expect(page.getByTestId("monitor-chart-all-failed")).toBeVisible();
      await expect(page.getByTestId("monitor-chart-all-failed")).toContainText("2");
      await expect(page.getByTestId("chart-empty")).toHaveCount(0);
      await expect(page.getByTestId("history-day-availability")).toHaveText("0%");
    });

    test("on a 390 px phone the monitor and user lists are cards: every column kept, no sideways scroll", async ({ page, vigil, target }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const admin = await vigil.register("alice", "alice@example.com");
      await vigil.register("bob");
      target.set("/checkout/a/rather/long/path/to/its/health/endpoint", 500);
      const id = await createMonitor(vigil, admin, { name: "Checkout API with a rather long name", url: target.url("/checkout/a/rather/long/path/to/its/health/endpoint"), retries: 0 });
      await withSession(page, admin, "/monitors");
      const card = page.getByTestId(`monitor-row-${id}`);
      await expect(card).toBeVisible();
      await expect(card.getByTestId(`monitor-link-${id}`)).toBeVisible();
      await expect(card.getByTestId(`monitor-status-${id}`)).toBeVisible();
      await expect(card.getByTestId(`monitor-reason-${id}`)).toHaveText(lang.reason);
      await expect(card).toContainText(lang.responseTime);
      await expect(card.getByTestId(`monitor-response-${id}`)).toHaveText(/ ms$/);
      await expect(card.getByTestId(`monitor-uptime-${id}`)).toHaveText("0%");
      await expect(card).toContainText(lang.lastChecked);
      for (const action of ["check", "pause", "edit", "delete"]) await expect(card.getByTestId(`monitor-${action}-${id}`)).toBeVisible();
      await expect(page.getByTestId("monitors-table-head")).toBeHidden();
      await expectNoSideScroll(page);

      await page.goto("/users");
      const row = page.getByTestId(`user-row-${admin.user.id}`);
      await expect(row).toContainText(lang.email);
      await expect(page.getByTestId(`user-email-${admin.user.id}`)).toHaveText("alice@example.com");
      await expect(page.getByTestId(`user-edit-${admin.user.id}`)).toBeVisible();
      await expectNoSideScroll(page);
    });
  });
}

test("an agent that stops reporting is listed as offline on the dashboard, filtered on /agents, its last values greyed (both languages)", async ({ page, vigil }) => {
  test.setTimeout(90_000); // an agent is offline only after 30 s of silence (3 × its 10 s interval)
  const admin = await vigil.register("alice");
  const quiet = await registerAgent(vigil, admin, "db-1");
  const chatty = await registerAgent(vigil, admin, "web-1");
  await report(vigil, quiet, "db-1");
  await withSession(page, admin, "/dashboard");
  await expect(page.getByTestId("dashboard-all-clear")).toBeVisible();

  // Keep web-1 reporting while db-1 falls silent.
  const keepAlive = setInterval(() => void report(vigil, chatty, "web-1", 1).catch(() => {}), 5_000);
  await report(vigil, chatty, "web-1", 1);
  try {
    const problem = page.getByTestId("problem-agent");
    await expect(problem).toHaveCount(1, { timeout: 50_000 });
    await expect(problem).toHaveAttribute("data-id", String(quiet.id));
    await expect(problem.getByTestId("problem-name")).toHaveText("db-1");
    await expect(problem).toContainText("客户端离线");
    await expect(problem.getByTestId("problem-since")).toHaveText(/^最后上报于 \d+秒前$/);
    await expect(page.getByTestId("dashboard-agents-offline-tile")).toHaveAttribute("data-tone", "red");

    await page.getByTestId("dashboard-agents-offline-tile").click();
    await expect(page).toHaveURL(/\/agents\?status=offline$/);
    await expect(page.getByTestId(`agent-card-${quiet.id}`)).toBeVisible();
    await expect(page.getByTestId(`agent-card-${chatty.id}`)).toHaveCount(0);
    await expect(page.getByTestId("agents-filter-offline")).toHaveAttribute("aria-current", "page");
    // Its figures are its last report: greyed, and said so.
    await expect(page.getByTestId(`agent-values-${quiet.id}`)).toHaveAttribute("data-stale", "true");
    await expect(page.getByTestId(`agent-values-${quiet.id}-stale`)).toHaveText("已离线：最后上报的数值");
    await expect(page.getByTestId(`agent-last-seen-${quiet.id}`)).toHaveText(/^最后在线: \d+秒前$/);
    await page.getByTestId("agents-filter-online").click();
    await expect(page).toHaveURL(/\/agents\?status=online$/);
    await expect(page.getByTestId(`agent-card-${chatty.id}`)).toBeVisible();
    await expect(page.getByTestId(`agent-card-${quiet.id}`)).toHaveCount(0);
    await expect(page.getByTestId(`agent-values-${chatty.id}`)).toHaveAttribute("data-stale", "false");
    await expect(page.getByTestId(`agent-values-${chatty.id}-stale`)).toHaveCount(0);

    // The detail greys its current values too, with when it was last seen.
    await page.goto(`/agents/${quiet.id}`);
    await expect(page.getByTestId("agent-current-values")).toHaveAttribute("data-stale", "true");
    await expect(page.getByTestId("agent-current-values-stale")).toHaveText(/^已离线：以下是它最后一次上报的数值。最后在线: \d+秒前$/);
    await expect(page.getByTestId("agent-current-cpu")).toBeVisible();

    // English.
    await page.goto(`/agents/${quiet.id}?lng=en-US`);
    await expect(page.getByTestId("agent-current-values-stale")).toHaveText(/^Offline: these are the last values it reported\.Last seen: \d+s ago$/);
    await page.goto("/agents?status=offline&lng=en-US");
    await expect(page.getByTestId(`agent-values-${quiet.id}-stale`)).toHaveText("Offline: last reported values");
    await page.goto("/dashboard?lng=en-US");
    await expect(problem).toContainText("Agent offline");
    await expect(problem.getByTestId("problem-since")).toHaveText(/^last report \d+s ago$/);
  } finally {
    clearInterval(keepAlive);
  }
});
