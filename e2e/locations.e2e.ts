import type { Page } from "@playwright/test";
import { expect, withSession, type Vigil } from "./fixtures";
import { createMonitor, registerAgent, report, test } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

// Checks from agents ("locations") in the browser, both languages: an admin chooses the agents and the rule on a
// monitor's page, the rows show each location's status and error (an agent that never reported: no data, never
// down), the combined down verdict names the locations in the reader's language, the chart has a line per location;
// viewers and editors see the locations without the edit form (the server lets admins alone assign checks to
// agents); refusals are translated by code; and on a phone.

/** An agent's results of its assigned checks, as `vigil-agent run` sends them. */
async function probe(vigil: Vigil, agent: { credential: string }, monitorId: number, result: { up: boolean; responseTime: number | null; error: string | null }) {
  const res = await vigil.api("POST", "/api/agents/probes", { version: "", results: [{ monitorId, time: Date.now(), httpStatus: null, ...result }] }, agent.credential);
  expect(res.status).toBe(200);
  expect(res.body.accepted).toBe(1);
}

/** The locations form's parts. */
function formOf(page: Page) {
  const form = page.getByTestId("locations-form");
  return {
    form,
    fromServer: page.getByTestId("locations-from-server"),
    agent: (id: number) => page.getByTestId(`locations-agent-${id}`),
    rule: page.getByTestId("locations-rule-select"),
    count: page.getByTestId("locations-count"),
    error: page.getByTestId("locations-form-error"),
    save: () => page.getByTestId("locations-save").click(),
  };
}

async function setUp(vigil: Vigil, url: string) {
  const admin = await vigil.register("alice");
  // No retries: one combined down verdict makes the monitor down.
  const monitorId = await createMonitor(vigil, admin, { name: "Shop API", url, retries: 0 });
  const tokyo = await registerAgent(vigil, admin, "tokyo");
  await report(vigil, tokyo, "tokyo", 2);
  // Registered but never reported: not online.
  const frankfurt = await registerAgent(vigil, admin, "frankfurt");
  return { admin, monitorId, tokyo, frankfurt };
}

for (const [locale, m] of LANGUAGES) {
  test.describe(`monitor locations (${locale})`, () => {
    test.use({ locale });

    test("an admin checks from two agents with at least 2 of 3; rows, errors, the combined verdict and the chart", async ({ page, vigil, target }) => {
      const { admin, monitorId, tokyo, frankfurt } = await setUp(vigil, target.url("/health"));
      await withSession(page, admin, `/monitors/${monitorId}`);

      // At first: the server alone (no rule to explain, and its response times are the chart above).
      const card = page.getByTestId("monitor-locations");
      await expect(card).toContainText(tr(m, "monitors.locations.title"));
      await expect(page.getByTestId("locations-list").locator("li")).toHaveCount(1);
      await expect(page.getByTestId("location-server-name")).toHaveText(tr(m, "monitors.locations.server"));
      await expect(page.getByTestId("location-server-status")).toHaveAttribute("data-status", "up");
      await expect(page.getByTestId("location-server-status")).toHaveText(tr(m, "monitors.locations.status.up"));
      await expect(page.getByTestId("location-server-latest")).toContainText(" ms");
      await expect(page.getByTestId("locations-rule")).toHaveCount(0);
      await expect(page.getByTestId("locations-chart")).toHaveCount(0);

      await page.getByTestId("locations-edit").click();
      const f = formOf(page);
      await expect(f.fromServer).toBeChecked();
      await expect(f.rule).toHaveValue("majority");
      await expect(f.agent(tokyo.id)).not.toBeChecked();
      await expect(f.form).toContainText("frankfurt");
      await f.agent(tokyo.id).check();
      await f.agent(frankfurt.id).check();
      await f.rule.selectOption("count");
      await expect(page.getByTestId("locations-rule-explanation")).toHaveText(tr(m, "monitors.locations.explain.countUnset"));
      await f.count.fill("4");
      await f.save();
      await expect(f.error).toHaveText(tr(m, "errors.LOCATION_COUNT"));
      await f.count.fill("2");
      await expect(page.getByTestId("locations-rule-explanation")).toHaveText(tr(m, "monitors.locations.explain.count", { count: 2, total: 3 }));
      await f.save();
      await expect(toast(page, tr(m, "monitors.locations.saved"))).toBeVisible();
      await expect(f.form).toHaveCount(0);

      const saved = (await vigil.api("GET", `/api/monitors/${monitorId}/locations`, undefined, admin.token)).body;
      expect(saved).toMatchObject({ checkFromServer: true, agentIds: [tokyo.id, frankfurt.id], rule: "count", count: 2 });
      await expect(page.getByTestId("locations-list").locator("li")).toHaveCount(3);
      await expect(page.getByTestId("locations-rule")).toHaveAttribute("data-rule", "count");
      await expect(page.getByTestId("locations-rule")).toContainText(tr(m, "monitors.locations.explain.count", { count: 2, total: 3 }));
      await expect(page.getByTestId(`location-${tokyo.id}-name`)).toHaveText("tokyo");
      await expect(page.getByTestId(`location-${tokyo.id}-name`)).toHaveAttribute("href", `/agents/${tokyo.id}`);
      // Never reported, never online: no data, never down.
      await expect(page.getByTestId(`location-${frankfurt.id}-status`)).toHaveAttribute("data-status", "no data");
      await expect(page.getByTestId(`location-${frankfurt.id}-status`)).toHaveText(tr(m, "monitors.locations.status.noData"));
      await expect(page.getByTestId(`location-${frankfurt.id}-offline`)).toHaveText(tr(m, "monitors.locations.agentOffline"));
      await expect(page.getByTestId(`location-${frankfurt.id}-latest`)).toHaveText(tr(m, "monitors.locations.never"));

      // tokyo cannot connect, and the target starts failing: 2 of the 3 locations (frankfurt has nothing) find it down.
      await probe(vigil, tokyo, monitorId, { up: false, responseTime: null, error: "connection refused" });
      target.set("/health", 500);
      await page.getByTestId("monitor-check-button").click();
      await expect(page.getByTestId("monitor-check-result")).toHaveAttribute("data-status", "down");
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "down");
      // The card follows the monitor's check (a live event), without a reload.
      await expect(page.getByTestId(`location-${tokyo.id}-status`)).toHaveAttribute("data-status", "down", { timeout: 10_000 });
      await expect(page.getByTestId(`location-${tokyo.id}-status`)).toHaveText(tr(m, "monitors.locations.status.down"));
      await expect(page.getByTestId(`location-${tokyo.id}-error`)).toHaveText(tr(m, "monitors.checkErrors.REFUSED"));
      await expect(page.getByTestId("location-server-status")).toHaveAttribute("data-status", "down");
      const statusError = tr(m, "monitors.checkErrors.STATUS", { status: 500, expected: "2xx" });
      await expect(page.getByTestId("location-server-error")).toHaveText(statusError);
      await expect(page.getByTestId(`location-${frankfurt.id}-status`)).toHaveAttribute("data-status", "no data");
      await expect(page.getByTestId("locations-down")).toHaveText(tr(m, "monitors.locations.downFrom", { down: 2, total: 2, names: `${tr(m, "monitors.locations.server")}, tokyo` }));

      // The verdict's sentence names the locations that found it down, each with its own error, translated.
      const names = [
        tr(m, "monitors.locations.nameWithError", { name: tr(m, "monitors.locations.server"), error: statusError }),
        tr(m, "monitors.locations.nameWithError", { name: "tokyo", error: tr(m, "monitors.checkErrors.REFUSED") }),
      ].join(tr(m, "monitors.locations.separator"));
      await expect(page.getByTestId("monitor-last-error")).toHaveText(tr(m, "monitors.checkErrors.LOCATIONS_DOWN", { down: 2, total: 2, names }));

      // One line per location, named in the page's language.
      const chart = page.getByTestId("locations-chart");
      await expect(chart).toBeVisible();
      await expect(chart.locator(".u-legend")).toContainText(tr(m, "monitors.locations.server"));
      await expect(chart.locator(".u-legend")).toContainText("tokyo");
      await expect(chart.locator(".u-legend")).toContainText("frankfurt");
      await page.getByTestId("locations-range-1h").click();
      await expect(page.getByTestId("locations-range-1h")).toHaveAttribute("aria-selected", "true");
      await expect(chart.locator(".u-legend")).toContainText("tokyo");
    });

    test("viewers and editors see the locations but cannot change them; a push monitor has none", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const monitorId = await createMonitor(vigil, admin, { name: "Shop API", url: "http://127.0.0.1:9/health", active: false });
      const push = (await vigil.api("POST", "/api/monitors", { name: "Backup job", type: "push", interval: 60 }, admin.token)).body.monitor.id as number;
      const tokyo = await registerAgent(vigil, admin, "tokyo");
      // Its checks go by its location name.
      expect((await vigil.api("PUT", `/api/agents/${tokyo.id}`, { name: "tokyo", location: "Tokyo DC" }, admin.token)).status).toBe(200);
      expect((await vigil.api("PUT", `/api/monitors/${monitorId}/locations`, { checkFromServer: true, agentIds: [tokyo.id], rule: "all" }, admin.token)).status).toBe(200);
      for (const [name, role] of [["vera", "viewer"], ["eddie", "editor"]] as const) {
        const someone = await vigil.register(name);
        expect((await vigil.api("PUT", `/api/users/${someone.user.id}`, { username: name, role }, admin.token)).status).toBe(200);
        const session = (await vigil.api("POST", "/api/auth/login", { username: name, password: "correct horse" })).body;
        await withSession(page, session, `/monitors/${monitorId}`);
        await expect(page.getByTestId("locations-list").locator("li")).toHaveCount(2);
        await expect(page.getByTestId(`location-${tokyo.id}-name`)).toHaveText("Tokyo DC");
        await expect(page.getByTestId("locations-rule")).toContainText(tr(m, "monitors.locations.explain.all"));
        await expect(page.getByTestId("locations-edit")).toHaveCount(0);
        expect((await vigil.api("PUT", `/api/monitors/${monitorId}/locations`, { checkFromServer: true, agentIds: [], rule: "majority" }, session.token)).status).toBe(403);
      }
      await page.goto(`/monitors/${push}`);
      await expect(page.getByTestId("monitor-push")).toBeVisible();
      await expect(page.getByTestId("monitor-locations")).toHaveCount(0);
    });

    test("on a phone: the form fits, refusals are translated, and a monitor no location reported on says so", async ({ page, vigil, target }) => {
      const { admin, monitorId, tokyo, frankfurt } = await setUp(vigil, target.url("/health"));
      await page.setViewportSize({ width: 390, height: 844 });
      await withSession(page, admin, `/monitors/${monitorId}`);
      await expect(page.getByTestId("location-server")).toBeVisible();
      await page.getByTestId("locations-edit").click();
      const f = formOf(page);
      await expect(f.agent(tokyo.id)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // Nowhere to check from.
      await f.fromServer.uncheck();
      await f.save();
      await expect(f.error).toHaveText(tr(m, "errors.NO_LOCATION"));

      // An agent deleted while the form was open: the server's refusal, in the page's language.
      await f.agent(frankfurt.id).check();
      expect((await vigil.api("DELETE", `/api/agents/${frankfurt.id}`, undefined, admin.token)).status).toBe(200);
      await f.save();
      await expect(f.error).toHaveText(tr(m, "errors.UNKNOWN_AGENT"));

      // tokyo alone, which has not reported yet: a check now has no verdict to give.
      await f.agent(frankfurt.id).uncheck();
      await f.agent(tokyo.id).check();
      await f.save();
      await expect(toast(page, tr(m, "monitors.locations.saved"))).toBeVisible();
      await expect(page.getByTestId("locations-list").locator("li")).toHaveCount(1);
      await expect(page.getByTestId(`location-${tokyo.id}-status`)).toHaveAttribute("data-status", "no data");
      await page.getByTestId("monitor-check-button").click();
      await expect(toast(page, tr(m, "errors.NO_LOCATION_DATA"))).toBeVisible();

      // It reports: up, with its response time.
      await probe(vigil, tokyo, monitorId, { up: true, responseTime: 42, error: null });
      await page.reload();
      await expect(page.getByTestId(`location-${tokyo.id}-status`)).toHaveAttribute("data-status", "up");
      await expect(page.getByTestId(`location-${tokyo.id}-latest`)).toContainText("42 ms");
      await expect(page.getByTestId(`location-${tokyo.id}-error`)).toHaveCount(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });

    test("an agent's location name comes from its edit page; a status page that shows locations lists them", async ({ page, vigil, target }) => {
      const { admin, monitorId, tokyo } = await setUp(vigil, target.url("/health"));
      await withSession(page, admin, `/agents/edit/${tokyo.id}`);
      await page.getByTestId("agent-edit-form").locator("input[name=location]").fill("Tokyo DC");
      await page.getByTestId("agent-edit-submit").click();
      await expect(toast(page, tr(m, "agents.updated"))).toBeVisible();
      expect((await vigil.api("GET", `/api/agents/${tokyo.id}`, undefined, admin.token)).body.agent.location).toBe("Tokyo DC");

      expect((await vigil.api("PUT", `/api/monitors/${monitorId}/locations`, { checkFromServer: true, agentIds: [tokyo.id], rule: "majority" }, admin.token)).status).toBe(200);
      await probe(vigil, tokyo, monitorId, { up: true, responseTime: 42, error: null });
      const groups = [{ name: "", items: [{ type: "monitor", id: monitorId }] }];
      const created = await vigil.api("POST", "/api/status-pages", { slug: "shop", title: "Shop", description: "", logo: null, customDomain: null, visibility: "public", announcement: null, groups }, admin.token);
      expect(created.status).toBe(201);
      await page.goto(`/status/shop`);
      await expect(page.getByTestId(`status-monitor-${monitorId}`)).toBeVisible();
      await expect(page.getByTestId(`status-locations-${monitorId}`)).toHaveCount(0);

      // Switched on in the page's editor.
      await page.goto(`/status-pages/${created.body.page.id}`);
      await page.getByTestId("page-show-locations").check();
      await page.getByTestId("page-save").click();
      await expect(toast(page, tr(m, "statusPages.saved"))).toBeVisible();
      await page.goto(`/status/shop`);
      const chips = page.getByTestId(`status-locations-${monitorId}`);
      await expect(chips.locator("li")).toHaveCount(2);
      await expect(chips).toContainText(tr(m, "statusPage.serverLocation"));
      await expect(chips).toContainText("Tokyo DC");
      await expect(chips).toContainText("42 ms");
    });
  });
}
