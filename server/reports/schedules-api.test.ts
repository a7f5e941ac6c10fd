// /api/report-schedules on both engines: create, list, change, delete; every refusal a 400/404 that says which field;
// viewers read, editors and admins change (as notification channels).
import { describe, expect, test } from "bun:test";
import { testApp } from "../test-support";
import type { ReportSchedule } from "./public";
import { reportFixture } from "./schedule-fixture";

async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const editor = await t.signUp("bob");
  const viewer = await t.signUp("vera");
  expect((await t.call("PUT", `/api/users/${viewer.user.id}`, { token: admin.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
  // Nothing is mailed here: the channel points at a closed port.
  const fixture = await reportFixture(t, admin.token, 9);
  const hook = await t.call<any>("POST", "/api/notifications/channels", { token: admin.token, body: { name: "Hook", type: "webhook", config: { url: "http://127.0.0.1:9/hook" } } });
  expect(hook.status).toBe(201);
  const page = await t.call<any>("POST", "/api/status-pages", {
    token: admin.token,
    body: { slug: "public", title: "Public", description: "", logo: null, customDomain: null, visibility: "public", announcement: null, groups: [{ name: "Web", items: [{ type: "monitor", id: fixture.monitorId }] }] },
  });
  expect(page.status).toBe(201);
  const valid = {
    name: "Monthly SLA",
    targetKind: "monitor",
    targetRef: String(fixture.monitorId),
    zone: "Europe/Berlin",
    language: "en-US",
    channelId: fixture.channelId,
    recipients: ["cto@example.com"],
  };
  return { ...t, ...fixture, admin, editor, viewer, webhookId: hook.body.channel.id as number, valid };
}

describe("report schedules API", () => {
  test("create, list, change and delete; the language defaults to the notifications'", async () => {
    const s = await setup();
    const call = <T = Record<string, any>>(method: string, path: string, body?: unknown) => s.call<T>(method, path, { token: s.editor.token, body });
    const { language: _omitted, ...withoutLanguage } = s.valid;
    const created = await call<{ schedule: ReportSchedule }>("POST", "/api/report-schedules", { ...withoutLanguage, recipients: [" cto@example.com ", "cto@example.com", "ops@example.com"] });
    expect(created.status).toBe(201);
    const schedule = created.body.schedule;
    expect(schedule).toMatchObject({ name: "Monthly SLA", targetKind: "monitor", zone: "Europe/Berlin", language: "zh-CN", enabled: true, recipients: ["cto@example.com", "ops@example.com"] });
    expect(schedule.lastPeriod).toMatch(/^\d{4}-\d{2}$/);

    const tag = await call("POST", "/api/report-schedules", { ...s.valid, name: "Web team", targetKind: "tag", targetRef: "team" });
    expect(tag.status).toBe(201);
    expect((await call("POST", "/api/report-schedules", { ...s.valid, targetKind: "status-page", targetRef: "public" })).status).toBe(201);

    const changed = await call<{ schedule: ReportSchedule }>("PUT", `/api/report-schedules/${schedule.id}`, { recipients: ["new@example.com"], language: "en-US", enabled: false });
    expect(changed.status).toBe(200);
    expect(changed.body.schedule).toMatchObject({ recipients: ["new@example.com"], language: "en-US", enabled: false, name: "Monthly SLA", lastPeriod: schedule.lastPeriod });

    const list = await s.call<{ schedules: ReportSchedule[] }>("GET", "/api/report-schedules", { token: s.viewer.token });
    expect(list.status).toBe(200);
    expect(list.body.schedules.map((x) => x.name)).toContain("Web team");

    expect((await call("DELETE", `/api/report-schedules/${schedule.id}`)).status).toBe(200);
    expect((await call("GET", `/api/report-schedules/${schedule.id}`)).status).toBe(404);
    expect((await call("PUT", `/api/report-schedules/${schedule.id}`, { enabled: true })).status).toBe(404);
    expect((await call("DELETE", `/api/report-schedules/${schedule.id}`)).status).toBe(404);
    expect((await call("POST", `/api/report-schedules/${schedule.id}/send`)).status).toBe(404);
    expect((await call("GET", "/api/report-schedules/abc")).status).toBe(400);

    // Deleting the channel deletes what mails through it.
    expect((await s.call("DELETE", `/api/notifications/channels/${s.channelId}`, { token: s.admin.token })).status).toBe(200);
    expect((await call<{ schedules: ReportSchedule[] }>("GET", "/api/report-schedules")).body.schedules).toEqual([]);
  });

  test("every refusal is a 400 naming what is wrong", async () => {
    const s = await setup();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["empty name", { name: "  " }, /name/],
      ["long name", { name: "x".repeat(101) }, /name/],
      ["no name", { name: undefined }, /name/],
      ["kind", { targetKind: "server" }, /targetKind/],
      ["missing monitor", { targetRef: "999999" }, /target: Monitor not found/],
      ["a monitor as a group", { targetKind: "group" }, /target: Group not found/],
      ["unknown tag", { targetKind: "tag", targetRef: "nobody" }, /target: No monitor has this tag/],
      ["unknown page", { targetKind: "status-page", targetRef: "nowhere" }, /target: Status page not found/],
      ["zone", { zone: "Mars/Olympus" }, /zone/],
      ["language", { language: "fr-FR" }, /language/],
      ["missing channel", { channelId: 999999 }, /channelId/],
      ["not an SMTP channel", { channelId: "webhook" }, /SMTP channel/],
      ["channel id text", { channelId: "one" }, /channelId/],
      ["no recipients", { recipients: [] }, /recipients/],
      ["51 recipients", { recipients: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`) }, /recipients must be 1-50/],
      ["bad address", { recipients: ["ok@example.com", "not-an-address"] }, /not-an-address/],
      ["recipients text", { recipients: "cto@example.com" }, /recipients/],
      ["enabled text", { enabled: "yes" }, /enabled/],
    ];
    for (const [what, patch, message] of cases) {
      const body = { ...s.valid, ...patch, ...(patch.channelId === "webhook" ? { channelId: s.webhookId } : {}) };
      const res = await s.call("POST", "/api/report-schedules", { token: s.editor.token, body });
      expect({ what, status: res.status, ok: message.test(String(res.body.message)) }).toEqual({ what, status: 400, ok: true });
    }
    const created = await s.call<{ schedule: ReportSchedule }>("POST", "/api/report-schedules", { token: s.editor.token, body: s.valid });
    expect(created.status).toBe(201);
    for (const [what, patch, message] of cases.filter(([, p]) => !Object.values(p).includes(undefined))) {
      const body = patch.channelId === "webhook" ? { channelId: s.webhookId } : patch;
      const res = await s.call("PUT", `/api/report-schedules/${created.body.schedule.id}`, { token: s.editor.token, body });
      expect({ what, status: res.status, ok: message.test(String(res.body.message)) }).toEqual({ what, status: 400, ok: true });
    }
  });

  test("viewers read; editors and admins change and send; nobody signed out", async () => {
    const s = await setup();
    const created = await s.call<{ schedule: ReportSchedule }>("POST", "/api/report-schedules", { token: s.admin.token, body: s.valid });
    expect(created.status).toBe(201);
    const id = created.body.schedule.id;
    const as = (token: string | undefined) => ({
      list: () => s.call("GET", "/api/report-schedules", { token }),
      get: () => s.call("GET", `/api/report-schedules/${id}`, { token }),
      create: () => s.call("POST", "/api/report-schedules", { token, body: s.valid }),
      update: () => s.call("PUT", `/api/report-schedules/${id}`, { token, body: { name: "Renamed" } }),
      send: () => s.call("POST", `/api/report-schedules/${id}/send`, { token }),
      remove: () => s.call("DELETE", `/api/report-schedules/${id}`, { token }),
    });
    const viewer = as(s.viewer.token);
    expect((await viewer.list()).status).toBe(200);
    expect((await viewer.get()).status).toBe(200);
    for (const change of [viewer.create, viewer.update, viewer.send, viewer.remove]) expect((await change()).status).toBe(403);
    const anonymous = as(undefined);
    for (const any of Object.values(anonymous)) expect((await any()).status).toBe(401);
    const editor = as(s.editor.token);
    expect((await editor.create()).status).toBe(201);
    expect((await editor.update()).status).toBe(200);
    // The mail server is not there: the send is tried, and refused as the provider's failure.
    expect((await editor.send()).status).toBe(502);
    expect((await editor.remove()).status).toBe(200);
  });
});
