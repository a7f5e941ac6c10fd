import type { Page } from "@playwright/test";
import { expect, withSession, type Vigil } from "./fixtures";
import { availabilityTrio, check, clearOfTheHourTurn, createMonitor, expectLegend, fill, test, type Session, type Target } from "./helpers";
import { LANGUAGES, tr } from "./i18n";

// The monitor list at scale: search, status filter, sort and tags kept in the URL (a shared link opens the same view),
// the type badge and target of each row, the latest checks and the 24-hour heartbeat strips, live checks updating one row, and only the rows
// near the viewport in the DOM.

const rows = (page: Page) => page.locator("[data-testid^=monitor-row-]");
/** The names of the rows in the DOM, top to bottom. */
const shownNames = (page: Page) => page.locator("[data-testid^=monitor-link-]").allTextContents();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Five monitors of four types, three tagged; the http "Zeta" is down. */
async function fleet(vigil: Vigil, session: Session, target: Target) {
  const port = Number(new URL(target.url("/")).port);
  target.set("/zeta", 500);
  const alpha = await createMonitor(vigil, session, { name: "Alpha web", url: target.url("/alpha"), tags: ["prod", "eu"] });
  const beta = await createMonitor(vigil, session, { name: "Beta db", type: "tcp", host: "127.0.0.1", port, tags: ["prod"] });
  // No DNS server to ask here: paused, it is still listed with its type and target.
  const gamma = (await vigil.api("POST", "/api/monitors", { name: "Gamma dns", type: "dns", host: "example.internal", dnsRecordType: "MX", active: false }, session.token)).body.monitor.id as number;
  const delta = (await vigil.api("POST", "/api/monitors", { name: "Delta push", type: "push", interval: 60 }, session.token)).body.monitor.id as number;
  const zeta = await createMonitor(vigil, session, { name: "Zeta api", url: target.url("/zeta"), retries: 0, tags: ["staging"] });
  return { port, alpha, beta, gamma, delta, zeta };
}

for (const [locale, m] of LANGUAGES) {
  test.describe(`monitor list (${locale})`, () => {
    test.use({ locale });

    test("search, status, sort and tags live in the URL; a shared URL opens the same view; each row shows its type", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const ids = await fleet(vigil, session, target);
      const recent: string[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).pathname === "/api/monitors/checks/recent") recent.push(r.url());
      });
      await withSession(page, session, "/monitors");
      await expect(rows(page)).toHaveCount(5);
      // Triage order by default: down first, then pending, up, paused.
      expect((await shownNames(page))[0]).toBe("Zeta api");
      expect((await shownNames(page)).at(-1)).toBe("Gamma dns");

      // Type badges and what each row names under its name.
      for (const [id, type] of [[ids.alpha, "http"], [ids.beta, "tcp"], [ids.gamma, "dns"], [ids.delta, "push"]] as const) {
        await expect(page.getByTestId(`monitor-type-${id}`)).toHaveAttribute("data-type", type);
        await expect(page.getByTestId(`monitor-type-${id}`)).toContainText(tr(m, `monitors.types.${type}`));
      }
      await expect(page.getByTestId(`monitor-target-${ids.alpha}`)).toHaveText(`GET${target.url("/alpha")}`);
      await expect(page.getByTestId(`monitor-target-${ids.beta}`)).toHaveText(`127.0.0.1:${ids.port}`);
      await expect(page.getByTestId(`monitor-target-${ids.gamma}`)).toContainText("example.internal");
      await expect(page.getByTestId(`monitor-target-${ids.delta}`)).toHaveText(tr(m, "monitors.list.noPush"));
      await expect(page.getByTestId(`monitor-tags-${ids.alpha}`).getByTestId("tag")).toHaveText(["prod", "eu"]);
      // Vigil does not check a push monitor: its row has no "Check now", the others do.
      await expect(page.getByTestId(`monitor-check-${ids.delta}`)).toHaveCount(0);
      await expect(page.getByTestId(`monitor-check-${ids.beta}`)).toBeVisible();

      // Search by name, then by target; typing replaces the history entry instead of stacking one per key.
      const historyBefore = await page.evaluate(() => history.length);
      const search = page.getByTestId("monitors-search");
      await search.pressSequentially("BETA", { delay: 40 });
      await expect(page).toHaveURL(/\/monitors\?q=BETA$/);
      await expect(rows(page)).toHaveCount(1);
      await expect(page.getByTestId(`monitor-row-${ids.beta}`)).toBeVisible();
      await search.fill("example.internal");
      await expect(page).toHaveURL(/\?q=example.internal$/);
      await expect(rows(page)).toHaveCount(1);
      await expect(page.getByTestId(`monitor-row-${ids.gamma}`)).toBeVisible();
      expect(await page.evaluate(() => history.length)).toBe(historyBefore);
      await expect(page.getByTestId("monitors-shown")).toHaveText(tr(m, "monitors.list.shown", { shown: 1, total: 5 }));

      // Nothing matches: say so, and offer the way back.
      await search.fill("no such monitor");
      await expect(page.getByTestId("monitors-filter-empty")).toHaveText(tr(m, "monitors.list.noMatch"));
      await page.getByTestId("monitors-clear-filters").click();
      await expect(page).toHaveURL(/\/monitors$/);
      await expect(search).toHaveValue("");
      await expect(rows(page)).toHaveCount(5);

      // The status pills keep the search.
      await search.fill("a");
      await expect(page).toHaveURL(/\?q=a$/);
      await expect(page.getByTestId("monitors-filter-up")).toContainText(`${tr(m, "monitors.status.up")}2`);
      await page.getByTestId("monitors-filter-up").click();
      await expect(page).toHaveURL(/\?q=a&status=up$/);
      await expect.poll(async () => (await shownNames(page)).sort()).toEqual(["Alpha web", "Beta db"]);
      await page.getByTestId("monitors-filter-all").click();
      await expect(page).toHaveURL(/\?q=a$/);
      await page.getByTestId("monitors-clear").click();
      await expect(page).toHaveURL(/\/monitors$/);

      // Sort by name, reverse it, then by response time from a column header.
      await page.getByTestId("monitors-sort").selectOption("name");
      await expect(page).toHaveURL(/\?sort=name$/);
      await expect.poll(() => shownNames(page)).toEqual(["Alpha web", "Beta db", "Delta push", "Gamma dns", "Zeta api"]);
      await page.getByTestId("monitors-sort-dir").click();
      await expect(page).toHaveURL(/\?sort=name&dir=desc$/);
      await expect.poll(() => shownNames(page)).toEqual(["Zeta api", "Gamma dns", "Delta push", "Beta db", "Alpha web"]);
      await page.getByTestId("monitors-sort-responseTime").click();
      await expect(page).toHaveURL(/\?sort=responseTime$/);
      await expect(page.getByRole("columnheader", { name: tr(m, "monitors.columns.responseTime") })).toHaveAttribute("aria-sort", "descending");
      // Without a response time (push never called, dns paused): last.
      await expect.poll(async () => (await shownNames(page)).slice(-2).sort()).toEqual(["Delta push", "Gamma dns"]);

      // Tags: every chosen one must be there.
      const chip = (tag: string) => page.getByTestId("monitors-tag-filter").and(page.locator(`[data-tag="${tag}"]`));
      await expect(page.getByTestId("monitors-tag-filter")).toHaveCount(3);
      await chip("prod").click();
      await expect(page).toHaveURL(/\?sort=responseTime&tag=prod$/);
      await expect(chip("prod")).toHaveAttribute("aria-pressed", "true");
      await expect.poll(async () => (await shownNames(page)).sort()).toEqual(["Alpha web", "Beta db"]);
      await chip("eu").click();
      await expect(page).toHaveURL(/&tag=prod&tag=eu$/);
      await expect(rows(page)).toHaveCount(1);
      await expect(page.getByTestId(`monitor-row-${ids.alpha}`)).toBeVisible();

      // A shared link opens the same view in a fresh tab.
      const shared = "/monitors?q=a&status=up&sort=name&dir=desc&tag=prod";
      const other = await page.context().newPage();
      await other.goto(shared);
      await expect(other.getByTestId("monitors-search")).toHaveValue("a");
      await expect(other.getByTestId("monitors-sort")).toHaveValue("name");
      await expect(other.getByTestId("monitors-sort-dir")).toHaveAttribute("data-dir", "desc");
      await expect(other.getByTestId("monitors-filter-up")).toHaveAttribute("aria-current", "page");
      await expect(other.getByTestId("monitors-tag-filter").and(other.locator('[data-tag="prod"]'))).toHaveAttribute("aria-pressed", "true");
      await expect.poll(() => shownNames(other)).toEqual(["Beta db", "Alpha web"]);
      await expect(other).toHaveURL(new RegExp(`${escape(shared)}$`));
      await other.close();

      // The list never loads the 50-check strips of every monitor: only of the rows in view, by id.
      expect(recent.length).toBeGreaterThan(0);
      for (const url of recent) expect(new URL(url).searchParams.get("ids")).toMatch(/^\d+(,\d+)*$/);
    });

    test("the heartbeat strip shows the last 24 hours; a live check updates its own row only", async ({ page, vigil, target }) => {
      await clearOfTheHourTurn(); // its checks all count in the last bar
      const session = await vigil.register("alice");
      const flaky = await createMonitor(vigil, session, { name: "Flaky", url: target.url("/flaky"), retries: 0 }); // up
      target.set("/flaky", 500);
      await check(vigil, session, flaky); // down
      target.set("/flaky", 200);
      await check(vigil, session, flaky); // up
      const calm = await createMonitor(vigil, session, { name: "Calm", url: target.url("/calm") });
      await withSession(page, session, "/monitors");

      const strip = page.getByTestId(`monitor-heartbeat-${flaky}`);
      const bars = strip.getByTestId("heartbeat-bar");
      await expect(bars).toHaveCount(24);
      await expect(bars.first()).toHaveAttribute("data-level", "none");
      await expect(bars.last()).toHaveAttribute("data-level", "degraded"); // 2 of 3 up
      await expect(strip).toHaveAttribute("aria-label", tr(m, "monitors.list.heartbeat.label", { up: 2, total: 3 }));
      const hourText = tr(m, "monitors.list.heartbeat.hour", { time: "§", up: 2, total: 3 }).split("§")[1]!;
      await expect(bars.last()).toHaveAttribute("title", new RegExp(`\\d{2}:\\d{2}.\\d{2}:\\d{2}${escape(hourText)}$`));
      await expect(bars.first()).toHaveAttribute("title", new RegExp(`${escape(tr(m, "monitors.list.heartbeat.hourEmpty", { time: "§" }).split("§")[1]!)}$`));
      await expect(page.getByTestId(`monitor-heartbeat-${calm}`).getByTestId("heartbeat-bar").last()).toHaveAttribute("data-level", "up");

      // A check run elsewhere arrives over the socket: its row changes, the other row stays the same element.
      await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "open");
      await page.getByTestId(`monitor-row-${calm}`).evaluate((el) => ((el as HTMLElement & { mark?: number }).mark = 1));
      target.set("/flaky", 500);
      await check(vigil, session, flaky);
      await expect(bars.last()).toHaveAttribute("data-checks", "4");
      await expect(bars.last()).toHaveAttribute("data-up", "2");
      await expect(strip).toHaveAttribute("aria-label", tr(m, "monitors.list.heartbeat.label", { up: 2, total: 4 }));
      await expect(page.getByTestId(`monitor-status-${flaky}`)).toHaveAttribute("data-status", "down");
      // Down now: it moves to the top.
      await expect(rows(page).first()).toHaveAttribute("data-testid", `monitor-row-${flaky}`);
      expect(await page.getByTestId(`monitor-row-${calm}`).evaluate((el) => (el as HTMLElement & { mark?: number }).mark)).toBe(1);
      await expect(page.getByTestId(`monitor-heartbeat-${calm}`)).toHaveAttribute("data-checks", "1");

      // A push monitor's call arrives over the socket: its row says when it last pushed.
      const push = (await vigil.api("POST", "/api/monitors", { name: "Backup job", type: "push", interval: 60 }, session.token)).body.monitor;
      await expect(page.getByTestId(`monitor-target-${push.id}`)).toHaveText(tr(m, "monitors.list.noPush"));
      expect((await fetch(`${vigil.url}/api/push/${push.pushToken}`)).status).toBe(200);
      const [before, after] = tr(m, "monitors.list.lastPush", { time: "§" }).split("§");
      await expect(page.getByTestId(`monitor-target-${push.id}`)).toHaveText(new RegExp(`^${escape(before!)}.+${escape(after!)}$`));

      // A manual check from the list counts once (its reply and its push are the same check).
      await page.getByTestId(`monitor-check-${calm}`).click();
      await expect(page.getByTestId(`monitor-heartbeat-${calm}`)).toHaveAttribute("data-checks", "2");
      await page.waitForTimeout(300);
      await expect(page.getByTestId(`monitor-heartbeat-${calm}`)).toHaveAttribute("data-checks", "2");
    });

    test("the strips' colours: an hour all up, 85 % up and 0 % up differ; the legend under the list says what each means", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const { allUp, mostlyUp, allDown } = await availabilityTrio(vigil, session, target);
      await withSession(page, session, "/monitors");
      const hour = (id: number) => page.getByTestId(`monitor-heartbeat-${id}`).getByTestId("heartbeat-bar").last();
      await expect(hour(allUp)).toHaveAttribute("data-level", "up");
      await expect(hour(mostlyUp)).toHaveAttribute("data-level", "degraded");
      await expect(hour(mostlyUp)).toHaveAttribute("data-up", "17");
      await expect(hour(mostlyUp)).toHaveAttribute("data-checks", "20");
      await expect(hour(allDown)).toHaveAttribute("data-level", "down");
      expect(new Set([await fill(hour(allUp)), await fill(hour(mostlyUp)), await fill(hour(allDown))]).size).toBe(3);
      await expectLegend(page.getByTestId("monitors-legend"), m);
    });

    test("a new monitor's row shows its checks one bar each; a bar's facts show on keyboard focus; live checks add bars", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const id = await createMonitor(vigil, session, { name: "Fresh", url: target.url("/fresh"), retries: 0 }); // up
      target.set("/fresh", 500);
      await check(vigil, session, id); // down
      await withSession(page, session, "/monitors");
      await expect(page.getByTestId(`monitor-row-${id}`)).toBeVisible({ timeout: 15_000 });
      const strip = page.getByTestId(`monitor-checks-${id}`);
      const bars = strip.getByTestId("check-cell");
      await expect(strip).toHaveAttribute("data-count", "2");
      // The cells may land a frame after the strip's count on a loaded machine: read until they are there.
      await expect.poll(() => bars.evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))).toEqual(["up", "down"]);
      await expect(strip).toHaveAttribute("aria-label", tr(m, "monitors.strip.label", { count: 2 }));

      // Keyboard: the strip is one tab stop after the name (the newest bar); arrows move along it, Escape closes.
      await page.getByTestId(`monitor-link-${id}`).focus();
      await page.keyboard.press("Tab");
      await expect(bars.last()).toBeFocused();
      const tip = page.getByTestId("check-tooltip");
      await expect(tip).toBeVisible();
      await expect(tip).toHaveAttribute("data-status", "down");
      await expect(tip).toContainText(tr(m, "monitors.status.down"));
      await expect(tip).toContainText("HTTP 500");
      await page.keyboard.press("ArrowLeft");
      await expect(bars.first()).toBeFocused();
      await expect(tip).toHaveAttribute("data-status", "up");
      await expect(tip).toContainText(tr(m, "monitors.status.up"));
      await page.keyboard.press("Escape");
      await expect(tip).toHaveCount(0);
      await page.keyboard.press("Tab"); // on to the row's actions, not through 50 bars
      await expect(page.getByTestId(`monitor-check-${id}`)).toBeFocused();

      // A check run elsewhere arrives live as a new bar.
      target.set("/fresh", 200);
      await check(vigil, session, id);
      await expect(strip).toHaveAttribute("data-count", "3");
      await expect(bars.last()).toHaveAttribute("data-status", "up");
    });

    test.describe("on a 390 px touch screen", () => {
      test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

      test("a row's card shows its checks; a tap on a bar shows its facts", async ({ page, vigil, target }) => {
        const session = await vigil.register("alice");
        target.set("/phone", 503);
        const id = await createMonitor(vigil, session, { name: "Phone", url: target.url("/phone"), retries: 0 });
        await withSession(page, session, "/monitors");
        await expect(page.getByTestId(`monitor-row-${id}`)).toBeVisible({ timeout: 15_000 });
        const bars = page.getByTestId(`monitor-checks-${id}`).getByTestId("check-cell");
        await expect(bars).toHaveCount(1);
        await expect(bars.first()).toBeInViewport();
        await bars.first().tap();
        const tip = page.getByTestId("check-tooltip");
        await expect(tip).toBeVisible();
        await expect(tip).toContainText("HTTP 503");
        await expect(tip).toBeInViewport({ ratio: 1 });
        const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
      });
    });

    test("hundreds of monitors: only the rows near the viewport are in the DOM; scrolling reaches the last", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      const n = 300;
      const ids: number[] = [];
      for (let i = 1; i <= n; i++) {
        const res = await vigil.api("POST", "/api/monitors", { name: `svc ${String(i).padStart(3, "0")}`, url: `http://127.0.0.1:9/${i}`, active: false, tags: i % 2 ? ["odd"] : [] }, session.token);
        ids.push(res.body.monitor.id);
      }
      // The screen asks the server for the rows around the viewport, never for the whole list, and has the server
      // send the checks of those monitors only (the watch message on the live socket).
      const asked: URL[] = [];
      page.on("request", (r) => {
        const url = new URL(r.url());
        if (url.pathname.startsWith("/api/monitors") && !url.pathname.startsWith("/api/monitors/checks")) asked.push(url);
      });
      const watched: number[][] = [];
      page.on("websocket", (ws) =>
        ws.on("framesent", ({ payload }) => {
          const message = JSON.parse(String(payload));
          if (message.type === "watch") watched.push(message.data.monitors);
        }),
      );
      const lastWatch = () => watched.at(-1) ?? [];
      await withSession(page, session, "/monitors?sort=name");
      const table = page.getByTestId("monitors-table");
      await expect(table).toHaveAttribute("aria-rowcount", String(n + 1));
      await expect(page.getByTestId(`monitor-row-${ids[0]}`)).toBeVisible();
      expect(await rows(page).count()).toBeLessThan(40);
      await expect(page.getByTestId(`monitor-row-${ids[0]}`)).toHaveAttribute("aria-rowindex", "2");
      await expect.poll(() => lastWatch().includes(ids[0])).toBe(true);
      expect(lastWatch().length).toBeLessThan(n / 2);
      expect(lastWatch()).not.toContain(ids[n - 1]);

      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect(page.getByTestId(`monitor-row-${ids[n - 1]}`)).toBeVisible();
      await expect(page.getByTestId(`monitor-row-${ids[n - 1]}`)).toHaveAttribute("aria-rowindex", String(n + 1));
      expect(await rows(page).count()).toBeLessThan(40);
      await expect(page.getByTestId(`monitor-row-${ids[0]}`)).toHaveCount(0);
      await expect.poll(() => lastWatch().includes(ids[n - 1])).toBe(true);
      expect(lastWatch()).not.toContain(ids[0]);
      expect(asked.every((url) => url.pathname === "/api/monitors/page")).toBe(true);
      expect(asked.some((url) => Number(url.searchParams.get("offset")) > 0)).toBe(true);
      expect(asked.every((url) => Number(url.searchParams.get("limit")) < n)).toBe(true);

      // A filter brings the list back within reach; the count says how many match.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByTestId("monitors-tag-filter").first().click();
      await expect(page.getByTestId("monitors-shown")).toHaveText(tr(m, "monitors.list.shown", { shown: 150, total: 300 }));
      await expect(table).toHaveAttribute("aria-rowcount", "151");
    });

    test("on a 1024 px screen the table drops Last checked and shows icon actions, with their names, and no sideways scroll", async ({ page, vigil, target }) => {
      await page.setViewportSize({ width: 1024, height: 768 });
      const session = await vigil.register("alice");
      const id = await createMonitor(vigil, session, { name: "Laptop check", url: target.url("/ok"), tags: ["prod"] });
      await withSession(page, session, "/monitors");
      const row = page.getByTestId(`monitor-row-${id}`);
      await expect(page.getByTestId("monitors-table-head")).toBeVisible();
      await expect(page.getByTestId(`monitor-checked-${id}`)).toBeHidden();
      // innerText: what is rendered (the header cell stays in the DOM, hidden at this width).
      expect(await page.getByTestId("monitors-table-head").innerText()).not.toContain(tr(m, "monitors.columns.lastChecked"));
      await expect(row.getByTestId(`monitor-heartbeat-${id}`)).toBeVisible();
      const names = { check: "monitors.actions.check", pause: "monitors.actions.pause", edit: "common.edit", delete: "common.delete" } as const;
      for (const [action, key] of Object.entries(names)) {
        const button = row.getByTestId(`monitor-${action}-${id}`);
        await expect(button).toBeInViewport({ ratio: 1 });
        await expect(button).toHaveAccessibleName(tr(m, key));
        await expect(button).toHaveAttribute("title", tr(m, key));
      }
      const widths = await page.evaluate(() => {
        const scroller = document.querySelector("[data-testid=monitors-table]")!.parentElement!;
        return [document.documentElement.scrollWidth, window.innerWidth, scroller.scrollWidth, scroller.clientWidth];
      });
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
      expect(widths[2]).toBeLessThanOrEqual(widths[3]!);
      // The icon action still works: pausing from it.
      await row.getByTestId(`monitor-pause-${id}`).click();
      await expect(row).toHaveAttribute("data-status", "paused");
      await expect(row.getByTestId(`monitor-pause-${id}`)).toHaveAccessibleName(tr(m, "monitors.actions.resume"));
    });

    test("on a 390 px phone the rows are cards with the type, heartbeat and actions, and no sideways scroll", async ({ page, vigil, target }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const session = await vigil.register("alice");
      const id = await createMonitor(vigil, session, { name: "Phone check", url: target.url("/ok"), tags: ["prod", "mobile"] });
      await withSession(page, session, "/monitors");
      const card = page.getByTestId(`monitor-row-${id}`);
      await expect(card.getByTestId(`monitor-type-${id}`)).toBeVisible();
      await expect(card.getByTestId(`monitor-heartbeat-${id}`)).toBeVisible();
      await expect(card.getByTestId(`monitor-tags-${id}`)).toContainText("mobile");
      await expect(card).toContainText(tr(m, "monitors.columns.uptime"));
      for (const action of ["check", "pause", "edit", "delete"]) await expect(card.getByTestId(`monitor-${action}-${id}`)).toBeVisible();
      await expect(page.getByTestId("monitors-search")).toBeVisible();
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    });
  });
}
