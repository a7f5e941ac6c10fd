import { expect, withSession } from "./fixtures";
import { check, createMonitor, test } from "./helpers";

const LANGS = [
  {
    locale: "zh-CN",
    title: "监控",
    status: { up: "正常", down: "故障", pending: "等待中", paused: "已暂停" },
    nameRequired: "请输入名称",
    urlRequired: "请输入 URL",
    urlInvalid: "请输入以 http:// 或 https:// 开头的有效 URL",
    timeoutTooLong: "超时必须短于检查间隔",
    created: "监控已创建",
    updated: "监控已更新",
    deleted: "监控已删除",
    dialog: (name: string) => `确定要删除监控“${name}”吗？其历史记录也会一并删除。此操作无法撤销。`,
    fetchFailed: "获取监控数据失败",
    deleteFailed: "删除失败，请重试",
    loading: "正在加载监控…",
    empty: "还没有监控",
    every10: "每 10 分钟",
    ago: /前$/,
    noError: "无",
    status500: "状态码 500，期望 2xx",
  },
  {
    locale: "en-US",
    title: "Monitors",
    status: { up: "Up", down: "Down", pending: "Pending", paused: "Paused" },
    nameRequired: "Name is required",
    urlRequired: "URL is required",
    urlInvalid: "Enter a valid URL starting with http:// or https://",
    timeoutTooLong: "Timeout must be shorter than the interval",
    created: "Monitor created",
    updated: "Monitor updated",
    deleted: "Monitor deleted",
    dialog: (name: string) => `Are you sure you want to delete the monitor "${name}"? Its history is deleted with it. This action cannot be undone.`,
    fetchFailed: "Failed to fetch monitor data",
    deleteFailed: "Deletion failed, please try again",
    loading: "Loading monitors…",
    empty: "No monitors yet",
    every10: "Every 10 min",
    ago: / ago$/,
    noError: "None",
    status500: "Status 500, expected 2xx",
  },
];

for (const lang of LANGS) {
  test.describe(`monitors (${lang.locale})`, () => {
    test.use({ locale: lang.locale });

    test("create through the form: validation first, no request until it passes", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      let posts = 0;
      page.on("request", (r) => {
        if (r.method() === "POST" && new URL(r.url()).pathname === "/api/monitors") posts++;
      });
      await withSession(page, session, "/monitors");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(lang.title);
      await expect(page.getByTestId("monitors-empty")).toContainText(lang.empty);
      await page.getByTestId("monitor-create-button").click();
      await expect(page).toHaveURL(/\/monitors\/create$/);

      const form = page.getByTestId("monitor-form");
      await page.getByTestId("monitor-submit").click();
      await expect(page.getByTestId("monitor-error-name")).toHaveText(lang.nameRequired);
      await expect(page.getByTestId("monitor-error-url")).toHaveText(lang.urlRequired);
      await expect(form.locator("input[name=name]")).toBeFocused();

      await form.locator("input[name=name]").fill("Public API");
      await form.locator("input[name=url]").fill("javascript:alert(1)");
      await page.getByTestId("monitor-submit").click();
      await expect(page.getByTestId("monitor-error-name")).toHaveCount(0);
      await expect(page.getByTestId("monitor-error-url")).toHaveText(lang.urlInvalid);
      // Timeout must stay below the interval.
      await form.locator("input[name=interval]").fill("1");
      await form.locator("input[name=timeout]").fill("60");
      await expect(page.getByTestId("monitor-error-timeout")).toHaveText(lang.timeoutTooLong);
      expect(posts).toBe(0);

      await form.locator("input[name=url]").fill(target.url("/health"));
      await form.locator("input[name=interval]").fill("2");
      await form.locator("input[name=timeout]").fill("10");
      await form.locator("select[name=method]").selectOption("POST");
      await form.locator("textarea[name=body]").fill('{"ping":true}');
      await page.getByTestId("monitor-header-add").click();
      await form.locator("input[name=header-name-0]").fill("X-Token");
      await form.locator("input[name=header-value-0]").fill("secret");
      await page.getByTestId("monitor-submit").click();
      await expect(page.getByText(lang.created)).toBeVisible();
      await expect(page).toHaveURL(/\/monitors\/\d+$/);
      await expect(page.getByTestId("monitor-name")).toHaveText("Public API");
      expect(posts).toBe(1);

      const list = await vigil.api("GET", "/api/monitors", undefined, session.token);
      expect(list.body.monitors).toHaveLength(1);
      expect(list.body.monitors[0]).toMatchObject({
        name: "Public API",
        url: target.url("/health"),
        method: "POST",
        interval: 2,
        timeout: 10,
        expectedStatus: "2xx",
        retries: 1,
        followRedirects: true,
        active: true,
        headers: [{ name: "X-Token", value: "secret" }],
        body: '{"ping":true}',
      });
    });

    test("the list goes from pending to up after a manual check, and follows changes live", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      target.set("/flip", 500);
      // One failure with one retry allowed: still pending.
      const id = await createMonitor(vigil, session, { name: "Flip", url: target.url("/flip") });
      await withSession(page, session, "/monitors");
      const status = page.getByTestId(`monitor-status-${id}`);
      await expect(status).toHaveAttribute("data-status", "pending");
      await expect(status).toHaveText(lang.status.pending);
      await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "open");

      target.set("/flip", 200);
      await page.getByTestId(`monitor-check-${id}`).click();
      await expect(status).toHaveAttribute("data-status", "up");
      await expect(status).toHaveText(lang.status.up);
      await expect(page.getByTestId(`monitor-response-${id}`)).toHaveText(/^\d[\d,]* ms$/);
      await expect(page.getByTestId(`monitor-uptime-${id}`)).toHaveText("50%");
      await expect(page.getByTestId(`monitor-checked-${id}`)).toHaveText(lang.ago);

      // Changes made elsewhere arrive over the socket, without a reload.
      target.set("/flip", 500);
      await vigil.api("PUT", `/api/monitors/${id}`, { retries: 0 }, session.token);
      await check(vigil, session, id);
      await expect(status).toHaveAttribute("data-status", "down");
      await expect(page.getByTestId(`monitor-uptime-${id}`)).toHaveText("33.33%");
      await vigil.api("PUT", `/api/monitors/${id}`, { active: false }, session.token);
      await expect(status).toHaveText(lang.status.paused);
      const other = await createMonitor(vigil, session, { name: "Second", url: target.url("/ok") });
      await expect(page.getByTestId(`monitor-status-${other}`)).toHaveAttribute("data-status", "up");
      await vigil.api("DELETE", `/api/monitors/${other}`, undefined, session.token);
      await expect(page.getByTestId(`monitor-row-${other}`)).toHaveCount(0);
    });

    test("the detail shows status bars, aggregates and the chart; a failing manual check shows down and its error", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const id = await createMonitor(vigil, session, { name: "Service", url: target.url("/svc"), retries: 0 });
      await check(vigil, session, id);
      await check(vigil, session, id);
      await withSession(page, session, `/monitors/${id}`);

      await expect(page.getByTestId("monitor-name")).toHaveText("Service");
      await expect(page.getByTestId("monitor-status")).toHaveText(lang.status.up);
      await expect(page.getByTestId("status-bar-day-slot")).toHaveCount(24);
      await expect(page.getByTestId("status-bar-month-slot")).toHaveCount(30);
      await expect(page.getByTestId("status-bar-day-slot").last()).toHaveAttribute("data-status", "up");
      await expect(page.getByTestId("status-bar-month-slot").last()).toHaveAttribute("data-status", "up");
      await expect(page.getByTestId("status-bar-day-slot").first()).toHaveAttribute("data-status", "empty");
      // The cards above load on their own: one that grows after the hover moves the slot from under the pointer.
      await expect(async () => {
        await page.getByTestId("status-bar-day-slot").last().hover();
        await expect(page.getByTestId("status-bar-day-tooltip")).toContainText("3", { timeout: 1000 });
      }).toPass();
      await expect(page.getByTestId("history-day-checks")).toContainText("3");
      await expect(page.getByTestId("history-day-availability")).toHaveText("100%");
      await expect(page.getByTestId("history-month-availability")).toHaveText("100%");
      await expect(page.getByTestId("history-day-avg")).toHaveText(/\d ms$/);
      await expect(page.getByTestId("history-day-error")).toHaveText(lang.noError);

      const chart = page.getByTestId("monitor-chart");
      await expect(chart.locator("canvas")).toBeVisible();
      for (const range of ["7d", "30d", "24h"]) {
        await page.getByTestId(`chart-range-${range}`).click();
        await expect(page.getByTestId(`chart-range-${range}`)).toHaveAttribute("aria-selected", "true");
        await expect(chart.locator("canvas")).toBeVisible();
      }

      target.set("/svc", 500);
      await page.getByTestId("monitor-check-button").click();
      const result = page.getByTestId("monitor-check-result");
      await expect(result).toHaveAttribute("data-status", "down");
      await expect(page.getByTestId("monitor-check-result-status")).toHaveText(lang.status.down);
      await expect(page.getByTestId("monitor-check-result-http")).toHaveText("500");
      await expect(page.getByTestId("monitor-check-result-error")).toHaveText(lang.status500);
      await expect(page.getByTestId("monitor-check-result-time")).toHaveText(/ ms$/);
      await expect(page.getByTestId("monitor-status")).toHaveText(lang.status.down);
      await expect(page.getByTestId("status-bar-day-slot").last()).toHaveAttribute("data-status", "partial");
      await expect(page.getByTestId("history-day-error")).toContainText(lang.status500);
      await expect(page.getByTestId("history-day-availability")).toHaveText("75%");
    });

    test("edit changes the interval and headers", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const id = await createMonitor(vigil, session, { name: "Edit me", url: target.url("/ok"), interval: 5 });
      await withSession(page, session, `/monitors/${id}`);
      await page.getByTestId("monitor-edit-button").click();
      await expect(page).toHaveURL(new RegExp(`/monitors/edit/${id}$`));
      const form = page.getByTestId("monitor-form");
      await expect(form.locator("input[name=name]")).toHaveValue("Edit me");
      await expect(form.locator("input[name=interval]")).toHaveValue("5");
      // GET has no body field.
      await expect(form.locator("textarea[name=body]")).toHaveCount(0);

      await form.locator("input[name=interval]").fill("10");
      await page.getByTestId("monitor-header-add").click();
      await form.locator("input[name=header-name-0]").fill("X-Test");
      await form.locator("input[name=header-value-0]").fill("1");
      await page.getByTestId("monitor-submit").click();
      await expect(page.getByText(lang.updated)).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/monitors/${id}$`));
      await expect(page.getByTestId("monitor-info-interval")).toHaveText(lang.every10);
      await expect(page.getByTestId("monitor-info-headers")).toContainText("X-Test: 1");
      const after = await vigil.api("GET", `/api/monitors/${id}`, undefined, session.token);
      expect(after.body.monitor).toMatchObject({ interval: 10, headers: [{ name: "X-Test", value: "1" }], name: "Edit me" });
    });

    test("pause, resume and delete from the list", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const id = await createMonitor(vigil, session, { name: "Short-lived", url: target.url("/ok") });
      await withSession(page, session, "/monitors");
      const status = page.getByTestId(`monitor-status-${id}`);
      await expect(status).toHaveAttribute("data-status", "up");

      await page.getByTestId(`monitor-pause-${id}`).click();
      await expect(status).toHaveText(lang.status.paused);
      expect((await vigil.api("GET", `/api/monitors/${id}`, undefined, session.token)).body.monitor.active).toBe(false);
      await page.getByTestId(`monitor-pause-${id}`).click();
      await expect(status).toHaveAttribute("data-status", "up");
      expect((await vigil.api("GET", `/api/monitors/${id}`, undefined, session.token)).body.monitor.active).toBe(true);

      await page.getByTestId(`monitor-delete-${id}`).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(lang.dialog("Short-lived"));
      await page.getByTestId("confirm-dialog-cancel").click();
      await expect(dialog).toHaveCount(0);

      // A failed deletion says so and keeps the row.
      await page.route("**/api/monitors/*", (route) => (route.request().method() === "DELETE" ? route.fulfill({ status: 500, body: "" }) : route.fallback()));
      await page.getByTestId(`monitor-delete-${id}`).click();
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(page.getByText(lang.deleteFailed)).toBeVisible();
      await expect(page.getByTestId(`monitor-row-${id}`)).toBeVisible();
      await page.unroute("**/api/monitors/*");

      await page.getByTestId(`monitor-delete-${id}`).click();
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(page.getByText(lang.deleted)).toBeVisible();
      await expect(page.getByTestId(`monitor-row-${id}`)).toHaveCount(0);
      await expect(page.getByTestId("monitors-empty")).toBeVisible();
      expect((await vigil.api("GET", "/api/monitors", undefined, session.token)).body.monitors).toEqual([]);
    });

    test("delete from the detail page: the dialog names it, a cancel keeps it, a confirm returns to the list", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const id = await createMonitor(vigil, session, { name: "Detail victim", url: target.url("/ok") });
      await withSession(page, session, `/monitors/${id}`);
      await page.getByTestId("monitor-delete-button").click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(lang.dialog("Detail victim"));
      await page.getByTestId("confirm-dialog-cancel").click();
      await expect(dialog).toHaveCount(0);
      await expect(page).toHaveURL(new RegExp(`/monitors/${id}$`));

      await page.getByTestId("monitor-delete-button").click();
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(page.getByText(lang.deleted)).toBeVisible();
      await expect(page).toHaveURL(/\/monitors$/);
      expect((await vigil.api("GET", `/api/monitors/${id}`, undefined, session.token)).status).toBe(404);
    });

    test("the dashboard counts monitors and follows changes", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const up = await createMonitor(vigil, session, { name: "Up", url: target.url("/ok") });
      await check(vigil, session, up);
      const down = await createMonitor(vigil, session, { name: "Down", url: target.url("/fail"), retries: 0 });
      await check(vigil, session, down);
      await createMonitor(vigil, session, { name: "Pending", url: target.url("/fail-once"), retries: 1 }); // one failure, one retry left
      await createMonitor(vigil, session, { name: "Paused", url: target.url("/ok"), active: false });

      await withSession(page, session, "/dashboard");
      await expect(page.getByTestId("dashboard-total")).toHaveText("4");
      await expect(page.getByTestId("dashboard-active")).toHaveText("3");
      await expect(page.getByTestId("dashboard-up")).toHaveText("1");
      await expect(page.getByTestId("dashboard-down")).toHaveText("1");
      await expect(page.getByTestId("dashboard-pending")).toHaveText("1");

      // Pausing elsewhere updates the counts live.
      await vigil.api("PUT", `/api/monitors/${up}`, { active: false }, session.token);
      await expect(page.getByTestId("dashboard-active")).toHaveText("2");
      await expect(page.getByTestId("dashboard-up")).toHaveText("0");

      await page.getByTestId("dashboard-monitors-link").click();
      await expect(page).toHaveURL(/\/monitors$/);
      await expect(page.getByTestId("monitors-table").locator("[data-testid^=monitor-row-]")).toHaveCount(4);
    });

    test("loading text, then the fetch error", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      await page.route("**/api/monitors/page?*", async (route) => {
        await new Promise((r) => setTimeout(r, 400));
        await route.fulfill({ status: 503, body: "" });
      });
      await withSession(page, session, "/monitors");
      await expect(page.getByTestId("monitors-loading")).toHaveText(lang.loading);
      await expect(page.getByTestId("monitors-error")).toHaveText(lang.fetchFailed);
    });
  });
}

test("an unknown monitor id shows its error on the detail and edit pages", async ({ page, vigil }) => {
  const session = await vigil.register("alice");
  await withSession(page, session, "/monitors/999");
  await expect(page.getByTestId("monitor-load-error")).toHaveText("监控不存在");
  await page.goto("/monitors/edit/999");
  await expect(page.getByTestId("monitor-load-error")).toHaveText("监控不存在");
});
