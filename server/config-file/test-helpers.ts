// What the configuration-file API tests share: an instance with a signed-in admin, calls, and row counts.
import { testApp } from "../test-support";

export type Instance = Awaited<ReturnType<typeof setup>>;

export async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const post = (path: string, body: unknown, token = admin.token) => t.call<any>("POST", path, { token, body });
  const get = async (path: string, token = admin.token) => (await t.call<any>("GET", path, { token })).body;
  const text = async (path: string, token = admin.token) => {
    const res = await t.app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }));
    return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
  };
  const managed = async () => (await get("/api/config/managed")).managed as { kind: string; key: string; objectId: string; drifted: boolean }[];
  return { ...t, admin, post, get, text, managed };
}

/** Every table a file writes, counted: what an invalid file must leave as it was. */
export async function counts(s: Instance) {
  const { orm, t } = s.db;
  return {
    monitors: (await orm.select().from(t.monitors)).length,
    links: (await orm.select().from(t.configLinks)).length,
    channels: (await orm.select().from(t.notificationChannels)).length,
    overrides: (await orm.select().from(t.notificationOverrides)).length,
    pages: (await orm.select().from(t.statusPage)).length,
    pageMonitors: (await orm.select().from(t.statusPageMonitors)).length,
    windows: (await orm.select().from(t.maintenanceWindows)).length,
  };
}
