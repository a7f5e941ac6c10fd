import type { Locator } from "@playwright/test";
import { expect, withSession } from "./fixtures";
import { check, createMonitor, registerAgent, report, test } from "./helpers";

// Charts that read right: the x axis spans the chosen range whatever the data (one point included), failed checks are
// red markers on the response-time chart, memory and disk charts fit their data and show the threshold line.
// The chart exposes the scales uPlot really uses (data-x-min … on the figure); marks are counted on the canvas.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The x span of a chart's axis in ms, and how far its end is from now. */
async function xWindow(chart: Locator) {
  await expect(chart).toHaveAttribute("data-x-max", /\d/);
  const [min, max] = await Promise.all([chart.getAttribute("data-x-min"), chart.getAttribute("data-x-max")]);
  return { span: Number(max) - Number(min), lag: Date.now() - Number(max) };
}

/** Pixels of the plot drawn in the red of failure markers and threshold lines (#dc2626), by colour. */
function redPixels(chart: Locator) {
  return chart.locator("canvas").evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] > 180 && data[i + 1] < 80 && data[i + 2] < 80 && data[i + 3] > 200) n++;
    return n;
  });
}

for (const lang of [
  { locale: "zh-CN", failures: "失败的检查" },
  { locale: "en-US", failures: "Failed checks" },
]) {
  test.describe(`charts (${lang.locale})`, () => {
    test.use({ locale: lang.locale });

    test("a new monitor's single check sits in a 24 h / 7 d / 30 d axis, not a years-long one", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const id = await createMonitor(vigil, admin, { name: "Fresh", url: target.url("/fresh") });
      await withSession(page, admin, `/monitors/${id}`);
      const chart = page.getByTestId("monitor-chart");
      await expect(chart.locator("canvas")).toBeVisible();
      for (const [range, span] of [["24h", DAY], ["7d", 7 * DAY], ["30d", 30 * DAY]] as const) {
        await page.getByTestId(`chart-range-${range}`).click();
        await expect(chart.locator("canvas")).toBeVisible();
        await expect.poll(async () => (await xWindow(chart)).span).toBe(span);
        expect(Math.abs((await xWindow(chart)).lag)).toBeLessThan(5 * 60_000);
      }
      // Nothing failed: no red marker, no legend entry for failures.
      await page.getByTestId("chart-range-24h").click();
      await expect.poll(async () => (await xWindow(chart)).span).toBe(DAY);
      expect(await redPixels(chart)).toBe(0);
      await expect(chart.locator(".u-legend")).not.toContainText(lang.failures);
    });

    test("failed checks are red markers on the response-time chart", async ({ page, vigil, target }) => {
      const admin = await vigil.register("alice");
      const id = await createMonitor(vigil, admin, { name: "Flaky", url: target.url("/flaky"), retries: 0 });
      await check(vigil, admin, id);
      target.set("/flaky", 500);
      await check(vigil, admin, id);
      await check(vigil, admin, id);
      await withSession(page, admin, `/monitors/${id}`);
      const chart = page.getByTestId("monitor-chart");
      await expect(chart.locator("canvas")).toBeVisible();
      await expect(chart.locator(".u-legend")).toContainText(lang.failures);
      await expect.poll(() => redPixels(chart)).toBeGreaterThan(20);
    });

    test("agent charts span the range; memory and disks fit their data, the threshold line shows when the data is near it", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const agent = await registerAgent(vigil, admin, "web-1");
      // Memory at 37.5 %, / at 40 %, /data at 90 % (the sample of e2e/helpers.ts).
      await report(vigil, agent, "web-1");
      await withSession(page, admin, `/agents/${agent.id}`);

      const memory = page.getByTestId("chart-memory");
      const root = page.getByTestId("chart-disk-root");
      const data = page.getByTestId("chart-disk-data");
      const cpu = page.getByTestId("chart-cpu");
      for (const chart of [memory, root, data, cpu]) await expect(chart.locator("canvas")).toBeVisible();
      expect((await xWindow(cpu)).span).toBe(HOUR);

      // Fitted to the data: not 0-100, and the far-away threshold stays out of the way.
      for (const chart of [memory, root]) {
        await expect(chart).toHaveAttribute("data-y-min", "35");
        await expect(chart).toHaveAttribute("data-y-max", "45");
        await expect(chart).toHaveAttribute("data-thresholds", "");
        expect(await redPixels(chart)).toBe(0);
      }
      // Near the threshold: in view, drawn and labelled.
      await expect(data).toHaveAttribute("data-y-min", "85");
      await expect(data).toHaveAttribute("data-y-max", "95");
      await expect(data).toHaveAttribute("data-thresholds", "90");
      expect(await redPixels(data)).toBeGreaterThan(50);
      // CPU keeps 0-100, with the line.
      await expect(cpu).toHaveAttribute("data-y-max", "100");
      await expect(cpu).toHaveAttribute("data-thresholds", "90");
    });
  });
}
