import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, withSession } from "./fixtures";
import { availabilityTrio, createMonitor, expectLegend, fill, test } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

// The monitor page beyond its basics: the 1 h and 6 h chart ranges, the Badge section (a preview, Markdown and HTML
// to copy with the instance's public address, and what to do when the monitor is not on the status page), the
// history bars' colour scale with its legend, and the page right after creation (its first check counted, not
// "0 checks").

const HOUR = 3_600_000;

for (const [locale, m] of LANGUAGES) {
  test.describe(`monitor page (${locale})`, () => {
    test.use({ locale });
    test.slow(); // several pages and a reload each: more than 30 s on a busy two-core machine

    test("the response-time chart offers 1 h and 6 h: a range that wide, one point per check", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const id = await createMonitor(vigil, admin, { name: "Short range", url: target.url("/short") });
      await withSession(page, admin, `/monitors/${id}`);
      await expect(page.getByTestId("monitor-name")).toBeVisible({ timeout: 15_000 }); // a loaded machine is slow to start
      const tabs = page.getByRole("tablist", { name: tr(m, "monitors.detail.chart.range.label") }).getByRole("tab");
      await expect(tabs).toHaveText(["1h", "6h", "24h", "7d", "30d"].map((r) => tr(m, `monitors.detail.chart.range.${r}`)));
      const chart = page.getByTestId("monitor-chart");
      for (const [range, span] of [["1h", HOUR], ["6h", 6 * HOUR]] as const) {
        const answer = page.waitForResponse((r) => r.url().endsWith(`/api/monitors/${id}/series?range=${range}`));
        await page.getByTestId(`chart-range-${range}`).click();
        const { series } = await (await answer).json();
        expect(series.resolution).toBe("raw");
        expect(series.times.length).toBeGreaterThanOrEqual(1); // the check made at creation (and any since)
        expect(series.checks.every((n: number) => n === 1)).toBe(true);
        await expect(page.getByTestId(`chart-range-${range}`)).toHaveAttribute("aria-selected", "true");
        await expect(chart.locator("canvas")).toBeVisible();
        await expect.poll(async () => Number(await chart.getAttribute("data-x-max")) - Number(await chart.getAttribute("data-x-min"))).toBe(span);
      }
    });

    test("history bars: an hour and a day 85 % up are amber, 0 % up red, all up green; the legend says what each means", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const { allUp, mostlyUp, allDown } = await availabilityTrio(vigil, admin, target);
      const fills: string[] = [];
      for (const [id, level] of [[allUp, "up"], [mostlyUp, "degraded"], [allDown, "down"]] as const) {
        await withSession(page, admin, `/monitors/${id}`);
        await expect(page.getByTestId("status-bar-month")).toBeVisible({ timeout: 15_000 }); // a loaded machine is slow to start
        for (const bar of ["status-bar-day", "status-bar-month"]) await expect(page.getByTestId(`${bar}-slot`).last()).toHaveAttribute("data-level", level);
        fills.push(await fill(page.getByTestId("status-bar-month-slot").last()));
        if (level === "degraded") {
          await page.getByTestId("status-bar-month-slot").last().hover();
          await expect(page.getByTestId("status-bar-month-tooltip")).toContainText("85%");
        }
        await expectLegend(page.getByTestId("history-legend"), m);
      }
      expect(new Set(fills).size).toBe(3);
    });

    test("right after creation the page counts the first check as soon as its header shows it", async ({ page, vigil }) => {
      // A target that answers after eight seconds: the first check ends after the new page read its history.
      const slow = createServer((_req, res) => void setTimeout(() => res.end("ok"), 8000));
      await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
      try {
        const admin = await vigil.register("alice");
        await page.clock.install();
        await withSession(page, admin, "/monitors/create");
        const form = page.getByTestId("monitor-form");
        await form.locator("input[name=name]").fill("Fresh");
        await form.locator("input[name=url]").fill(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`);
        await page.getByTestId("monitor-submit").click();
        const checks = page.getByTestId("history-day-checks");
        const counted = (n: number) => `${n}${tr(m, "monitors.detail.aggregates.upDown", { up: n, down: 0 })}`;
        await expect(checks).toHaveText(counted(0), { timeout: 10_000 });
        // The page's clock stops: its throttled reload (3 s after a pushed check) and its regular refresh (a minute)
        // do not come to the rescue; the page must see by itself that the history lacks the header's check.
        await page.clock.pauseAt(await page.evaluate(() => Date.now() + 10_000));
        await expect(page.getByTestId("monitor-status")).toHaveText(tr(m, "monitors.status.up"), { timeout: 15_000 });
        await expect(checks).toHaveText(counted(1));
        await expect(page.getByTestId("history-day-latest")).not.toContainText(tr(m, "monitors.detail.aggregates.none"));
        await expect(page.getByTestId("monitor-strip")).toBeVisible();
        await expect(page.getByTestId("monitor-chart").locator("canvas")).toBeVisible();
        await page.clock.resume();
      } finally {
        slow.closeAllConnections();
        await new Promise((resolve) => slow.close(resolve));
      }
    });

    test("Badge: says it will not load until the monitor is on the status page; then the preview loads and the snippets copy", async ({ page, context, vigil, target }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: vigil.url });
      const admin = await vigil.register("alice");
      const id = await createMonitor(vigil, admin, { name: "Shop [eu]", url: target.url("/shop") });
      await withSession(page, admin, `/monitors/${id}`);
      await expect(page.getByTestId("monitor-name")).toBeVisible({ timeout: 15_000 }); // a loaded machine is slow to start
      const card = page.getByTestId("monitor-badge");
      await expect(card).toContainText(tr(m, "monitors.detail.badge.title"));
      await expect(page.getByTestId("monitor-badge-not-public")).toHaveText(`${tr(m, "monitors.detail.badge.notPublic")} ${tr(m, "monitors.detail.badge.addToPage")}`);
      await expect(page.getByTestId("monitor-badge-preview")).toHaveCount(0);
      await expect(page.getByTestId("monitor-badge-status-config")).toHaveAttribute("href", "/status/config");

      const saved = await vigil.api("PUT", "/api/status/config", { title: "Status", description: "", monitorIds: [id], agentIds: [], announcement: null }, admin.token);
      expect(saved.status).toBe(200);
      const image = `${vigil.url}/api/status/badge/${id}.svg`;
      const badgeAnswer = page.waitForResponse(image);
      await page.reload();
      expect((await badgeAnswer).headers()["content-type"]).toContain("image/svg+xml");
      const preview = page.getByTestId("monitor-badge-preview");
      await expect(preview).toHaveAttribute("src", image);
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      await expect(page.getByTestId("monitor-badge-not-public")).toHaveCount(0);

      const markdown = `[![Shop \\[eu\\]](${image})](${vigil.url}/status)`;
      const html = `<a href="${vigil.url}/status"><img src="${image}" alt="Shop [eu]"></a>`;
      await expect(page.getByTestId("monitor-badge-markdown")).toHaveText(markdown);
      await expect(page.getByTestId("monitor-badge-html")).toHaveText(html);
      await page.getByTestId("monitor-badge-markdown-copy").click();
      await expect(toast(page, tr(m, "monitors.detail.badge.copied")).first()).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(markdown);
      await page.getByTestId("monitor-badge-html-copy").click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(html);
    });
  });
}
