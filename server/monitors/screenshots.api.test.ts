// Browser failure screenshots through the API, on either engine (VIGIL_TEST_DATABASE_URL): a real Chromium fails a
// page served here, the screenshot is listed and downloadable as a PNG; the latest 20 are kept, the raw retention
// prunes them, deleting the monitor deletes them; viewers read them as they read checks.
import { afterAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp } from "../test-support";
import { DAY } from "./history";
import type { PublicMonitor } from "./public";
import { createScreenshots, SCREENSHOT_MAX_BYTES } from "./screenshots";
import { closeBrowser, hasChromium } from "./types/browser/pool";

const chromiumMissing = !hasChromium() && !process.env.CI;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () => new Response(`<!doctype html><html><body><h1>Hello</h1></body></html>`, { headers: { "content-type": "text/html" } }),
});
afterAll(async () => {
  server.stop(true);
  await closeBrowser();
});

async function setUp() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const viewer = await t.signUp("vera");
  expect((await t.call("PUT", `/api/users/${viewer.user.id}`, { token: admin.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
  const created = await t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", {
    token: admin.token,
    body: { name: "Shop page", type: "browser", timeout: 15, settings: { url: `http://127.0.0.1:${server.port}/`, selector: "#checkout" } },
  });
  expect(created.status).toBe(201);
  return { ...t, token: admin.token, viewerToken: (await t.login("vera")).token, id: created.body.monitor.id };
}

type Listed = { screenshots: { time: number; error: string | null }[] };
const fakePng = (n: number) => new Uint8Array([...PNG_SIGNATURE, n]);

describe.skipIf(chromiumMissing)("browser failure screenshots", () => {
  test("a failed check's screenshot is listed and served as a PNG, to viewers too; a passing check keeps none", async () => {
    const t = await setUp();
    try {
      const check = await t.call<{ result: { status: string; error: string; time: number } }>("POST", `/api/monitors/${t.id}/check`, { token: t.token });
      expect(check.body.result.status).toBe("down");
      expect(check.body.result.error).toContain("#checkout");
      // The screenshot stays off the check's reply.
      expect(JSON.stringify(check.body)).not.toContain("screenshot");

      for (const token of [t.token, t.viewerToken]) {
        const list = await t.call<Listed>("GET", `/api/monitors/${t.id}/screenshots`, { token });
        expect(list.status).toBe(200);
        expect(list.body.screenshots).toEqual([{ time: check.body.result.time, error: check.body.result.error }]);
        const res = await t.app.handle(new Request(`http://localhost/api/monitors/${t.id}/screenshots/${check.body.result.time}`, { headers: { authorization: `Bearer ${token}` } }));
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("image/png");
        const bytes = new Uint8Array(await res.arrayBuffer());
        expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
        expect(bytes.byteLength).toBeGreaterThan(1000);
      }
      expect((await t.call("GET", `/api/monitors/${t.id}/screenshots`)).status).toBe(401);

      // Fixed: the next check passes and adds no screenshot.
      await t.call("PUT", `/api/monitors/${t.id}`, { token: t.token, body: { settings: { url: `http://127.0.0.1:${server.port}/`, selector: "h1" } } });
      expect((await t.call<{ result: { status: string } }>("POST", `/api/monitors/${t.id}/check`, { token: t.token })).body.result.status).toBe("up");
      expect((await t.call<Listed>("GET", `/api/monitors/${t.id}/screenshots`, { token: t.token })).body.screenshots).toHaveLength(1);
    } finally {
      await t.services.monitors.stop();
      await t.db.close();
    }
  }, 30_000);

  test("404s: no monitor, no screenshot at that time, a time that is not a number", async () => {
    const t = await setUp();
    try {
      expect((await t.call("GET", `/api/monitors/999999/screenshots`, { token: t.token })).body.code).toBe("MONITOR_NOT_FOUND");
      expect((await t.call("GET", `/api/monitors/999999/screenshots/1`, { token: t.token })).body.code).toBe("MONITOR_NOT_FOUND");
      const none = await t.call("GET", `/api/monitors/${t.id}/screenshots/1`, { token: t.token });
      expect([none.status, none.body.code]).toEqual([404, "SCREENSHOT_NOT_FOUND"]);
      expect((await t.call("GET", `/api/monitors/${t.id}/screenshots/soon`, { token: t.token })).status).toBe(400);
      expect((await t.call<Listed>("GET", `/api/monitors/${t.id}/screenshots`, { token: t.token })).body.screenshots).toEqual([]);
    } finally {
      await t.services.monitors.stop();
      await t.db.close();
    }
  });

  test("the latest 20 are kept, a picture over 2 MB is refused, the raw retention prunes them, deleting the monitor deletes them", async () => {
    const t = await setUp();
    try {
      // Its own writer over the same table (the API's reads wait for the service's queue, not this one's).
      const shots = createScreenshots(t.db);
      const now = Date.now();
      for (let i = 0; i < 25; i++) expect(shots.save(t.id, now - 25_000 + i * 1000, `error ${i}`, fakePng(i))).toBe(true);
      expect(shots.save(t.id, now, "huge", new Uint8Array(SCREENSHOT_MAX_BYTES + 1))).toBe(false);
      await shots.flush();
      const listed = (await t.call<Listed>("GET", `/api/monitors/${t.id}/screenshots`, { token: t.token })).body.screenshots;
      expect(listed.map((s) => s.error)).toEqual(Array.from({ length: 20 }, (_, i) => `error ${24 - i}`));
      const res = await t.app.handle(new Request(`http://localhost/api/monitors/${t.id}/screenshots/${listed[0]!.time}`, { headers: { authorization: `Bearer ${t.token}` } }));
      expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([...fakePng(24)]);

      // One past the raw retention (7 days) goes in the history's prune pass; the recent ones stay.
      await t.db.exec(sql`DELETE FROM check_screenshots WHERE monitor_id = ${t.id} AND time < ${listed[1]!.time}`);
      shots.save(t.id, now - 8 * DAY, "old", fakePng(99));
      await shots.flush();
      await t.services.monitors.history.maintain(now, { forcePrune: true });
      expect((await t.call<Listed>("GET", `/api/monitors/${t.id}/screenshots`, { token: t.token })).body.screenshots.map((s) => s.error)).toEqual(["error 24", "error 23"]);

      expect((await t.call("DELETE", `/api/monitors/${t.id}`, { token: t.token })).status).toBe(200);
      const [left] = await t.db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM check_screenshots`);
      expect(Number(left!.n)).toBe(0);
    } finally {
      await t.services.monitors.stop();
      await t.db.close();
    }
  });
});
