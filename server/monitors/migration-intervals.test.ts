// Migration 0028 (SQLite) / 0019 (PostgreSQL) turned intervals into seconds and timeouts into milliseconds: monitors
// written before it read back through the API with the interval and timeout they had. Runs on the test engine.
import { afterEach, expect, test } from "bun:test";
import type { Db } from "../db/database";
import { migratedFrom } from "../db/old-database";
import { testApp } from "../test-support";
import type { PublicMonitor } from "./public";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// Whole minutes and whole seconds, as Vigil kept them before: 5 min / 10 s, 1 min / 30 s, a day / 60 s.
const OLD_MONITORS = "INSERT INTO monitors (name, url, interval, timeout, created_at, updated_at) VALUES ('shop', 'https://shop.test/', 5, 10, 1, 1), ('api', 'https://api.test/', 1, 30, 1, 1), ('daily', 'https://daily.test/', 1440, 60, 1, 1)";

/** A database at the schema before the switch, holding OLD_MONITORS, opened (and so migrated) by today's code. */
const migrated = (): Promise<Db> => migratedFrom({ sqliteTag: "0028", pgTag: "0019" }, OLD_MONITORS, cleanups);

test("monitors from before intervals in seconds keep their interval and timeout through the API", async () => {
  const db = await migrated();
  cleanups.push(() => db.close());
  const t = await testApp({ db });
  const admin = await t.signUp("alice");
  const list = (await t.call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: admin.token })).body.monitors;
  const byName = Object.fromEntries(list.map((m) => [m.name, m]));
  expect(byName.shop).toMatchObject({ interval: 5, intervalSeconds: 300, retryIntervalSeconds: null, timeout: 10 });
  expect(byName.api).toMatchObject({ interval: 1, intervalSeconds: 60, timeout: 30 });
  expect(byName.daily).toMatchObject({ interval: 1440, intervalSeconds: 86_400, timeout: 60 });
  // And they stay editable as before: an old client's PUT of the whole monitor keeps them.
  const put = await t.call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${byName.api.id}`, { token: admin.token, body: { ...byName.api, name: "api 2" } });
  expect(put.body.monitor).toMatchObject({ name: "api 2", intervalSeconds: 60, timeout: 30 });
});
