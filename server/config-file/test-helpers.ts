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
  const n = async (table: Parameters<typeof orm.select>[0] extends never ? never : any) => (await orm.select().from(table)).length;
  return {
    monitors: await n(t.monitors),
    links: await n(t.configLinks),
    channels: await n(t.notificationChannels),
    overrides: await n(t.notificationOverrides),
    pages: await n(t.statusPage),
    pageMonitors: await n(t.statusPageMonitors),
    windows: await n(t.maintenanceWindows),
  };
}
