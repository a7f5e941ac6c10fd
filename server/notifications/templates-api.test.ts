import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { testApp } from "../test-support";
import { startFake, type Fake } from "./providers/test-fake";
import { sampleEvent } from "./template-context";

// Message templates through the API: saved with a channel, refused with line and column, previewed, and applied to
// what the outbox really sends (a webhook's whole body, a chat channel's title and text).

let fake: Fake;
const opened: { services: Services; db: Db }[] = [];
beforeEach(() => {
  fake = startFake(() => new Response("ok"));
});
afterEach(async () => {
  fake.stop();
  for (const { services, db } of opened.splice(0)) {
    await services.notifications.stop();
    await db.close();
  }
});

async function setup() {
  const db = await testDb();
  const services = await createServices(db, { notifications: { send: { timeoutMs: 1_000 }, publicUrl: "https://vigil.example.com" } });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  // Messages in English (the instance's default language is zh-CN).
  const settings = (await t.call<any>("GET", "/api/notifications/settings", { token })).body.settings;
  await t.call("PUT", "/api/notifications/settings", { token, body: { ...settings, language: "en-US" } });
  return { ...t, token, services };
}

const HOOK_BODY = '{"summary": {{ title }}, "who": {{ target.name }}, "status": {{ status }}, "link": {{ target.url }}, "code": {{ facts.httpStatus }}}';

describe("templates on a channel", () => {
  test("saved with the channel and returned; an edit replaces them; a type change re-checks them", async () => {
    const { call, token } = await setup();
    const templates = { down: { title: "{{ target.name }} is {{ status }}", body: HOOK_BODY } };
    const created = await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url: `${fake.url}/h` }, templates } });
    expect(created.status).toBe(201);
    expect(created.body.channel.templates).toEqual(templates);
    const id = created.body.channel.id;
    expect((await call<{ channel: any }>("GET", `/api/notifications/channels/${id}`, { token })).body.channel.templates).toEqual(templates);

    // Left out on an edit: kept. Sent: replaced (empty parts drop out).
    expect((await call<{ channel: any }>("PUT", `/api/notifications/channels/${id}`, { token, body: { name: "Hook 2" } })).body.channel.templates).toEqual(templates);
    const edited = await call<{ channel: any }>("PUT", `/api/notifications/channels/${id}`, { token, body: { templates: { recovery: { title: "up: {{ target.name }}", body: "" } } } });
    expect(edited.body.channel.templates).toEqual({ recovery: { title: "up: {{ target.name }}" } });

    // A JSON body is only JSON for a webhook: a Slack channel keeps none of the webhook's meaning but must still be valid.
    const slack = await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: "S", type: "slack", config: { url: `${fake.url}/services/T0/B0/xyz` }, templates: { down: { body: "plain {{ target.name }}" } } } });
    expect(slack.status).toBe(201);
    const toHook = await call("PUT", `/api/notifications/channels/${slack.body.channel.id}`, { token, body: { type: "webhook", config: { url: `${fake.url}/h` } } });
    expect(toHook.status).toBe(400);
    expect(toHook.body).toMatchObject({ success: false, code: "TEMPLATE_INVALID", field: "templates.down.body" });
  });

  test("bad templates are refused with the part, line and column, and nothing changes", async () => {
    const { call, token } = await setup();
    const id = (await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url: `${fake.url}/h` }, templates: { down: { title: "ok" } } } })).body.channel.id;
    const cases: [unknown, Record<string, unknown>][] = [
      [{ down: { body: "line one\n  {{ target.name " } }, { field: "templates.down.body", line: 2, column: 3 }],
      [{ offline: { title: "{{ target.nmae }}" } }, { field: "templates.offline.title", line: 1, column: 4 }],
      [{ down: { body: '{"x": {{ title }},}' } }, { field: "templates.down.body" }],
      [{ down: { body: "{% include 'secrets' %}" } }, { field: "templates.down.body", line: 1, column: 1 }],
      [{ outage: { title: "x" } }, {}],
      ["text", {}],
    ];
    for (const [templates, where] of cases) {
      const r = await call("PUT", `/api/notifications/channels/${id}`, { token, body: { templates } });
      expect([r.status, r.body.code]).toEqual([400, "TEMPLATE_INVALID"]);
      expect(r.body).toMatchObject({ success: false, ...where });
      expect(typeof r.body.message).toBe("string");
    }
    expect((await call<{ channel: any }>("GET", `/api/notifications/channels/${id}`, { token })).body.channel.templates).toEqual({ down: { title: "ok" } });
    const create = await call("POST", "/api/notifications/channels", { token, body: { name: "X", type: "webhook", config: { url: `${fake.url}/h` }, templates: { down: { title: "{{ nope }}" } } } });
    expect(create.status).toBe(400);
    expect((await call<{ channels: any[] }>("GET", "/api/notifications/channels", { token })).body.channels).toHaveLength(1);
  });
});

describe("preview", () => {
  test("renders a sample of the kind in each language; problems come back with their place; bad input is a 400", async () => {
    const { call, token } = await setup();
    const body = { type: "slack", kind: "down", title: "{{ target.name }}: {{ reason }}", body: "{{ target.url }}" };
    const en = await call<any>("POST", "/api/notifications/templates/preview", { token, body: { ...body, lang: "en-US" } });
    expect(en.status).toBe(200);
    expect(en.body.title).toEqual({ text: "Shop API: Status 503, expected 200-299", problem: null });
    expect(en.body.body).toEqual({ text: "https://vigil.example.com/monitors/12", problem: null });
    const zh = await call<any>("POST", "/api/notifications/templates/preview", { token, body: { ...body, lang: "zh-CN" } });
    expect(zh.body.title.text).toBe("Shop API: 状态码 503，期望 200-299");
    const wrong = await call<any>("POST", "/api/notifications/templates/preview", { token, body: { ...body, body: "a\n{% if %}" } });
    expect(wrong.status).toBe(200);
    expect(wrong.body.body.text).toBeNull();
    expect(wrong.body.body.problem).toMatchObject({ line: 2 });

    for (const bad of [{ ...body, kind: "outage" }, { ...body, type: "fax" }, { ...body, lang: "fr" }, { ...body, title: 5 }]) {
      const r = await call("POST", "/api/notifications/templates/preview", { token, body: bad });
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
    }
    expect((await call("POST", "/api/notifications/templates/preview", { body })).status).toBe(401);
  });
});

describe("what is sent", () => {
  test("a webhook sends its templated body, signed as sent; a test send uses the test template", async () => {
    const { call, token, services } = await setup();
    const templates = { down: { body: HOOK_BODY }, test: { body: '{"ping": {{ target.name }}}' } };
    const id = (await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url: `${fake.url}/h`, secret: "s3cret-s3cret" }, templates } })).body.channel.id;

    expect((await call("POST", `/api/notifications/channels/${id}/test`, { token })).status).toBe(200);
    expect(fake.received.at(-1)!.json).toEqual({ ping: "Hook" });

    services.notifications.start();
    await services.notifications.outbox.enqueue([id], { ...sampleEvent("down"), time: Date.now() }, "down:12:1");
    await waitFor(() => fake.received.length === 2);
    const sent = fake.received[1]!;
    expect(sent.json).toEqual({ summary: "🔴 Monitor down: Shop API", who: "Shop API", status: "down", link: "https://vigil.example.com/monitors/12", code: 503 });
    const { webhookSignature } = await import("./providers/webhook");
    expect(sent.headers["x-vigil-signature"]).toBe(webhookSignature("s3cret-s3cret", sent.body));
  });

  test("a chat channel gets the templated title and text; a kind without a template gets the built-in message", async () => {
    const { call, token, services } = await setup();
    const templates = { offline: { title: "{{ target.name }} went quiet", body: "last seen {{ facts.lastSeen }}\n{{ target.url }}" } };
    const id = (await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: "Chat", type: "mattermost", config: { url: `${fake.url}/hooks/abc` }, templates } })).body.channel.id;
    fake.answer(() => new Response("ok"));
    services.notifications.start();
    await services.notifications.outbox.enqueue([id], sampleEvent("offline"), "offline:3:1");
    await waitFor(() => fake.received.length === 1);
    const text = JSON.stringify(fake.received[0]!.json);
    expect(text).toContain("web-01 went quiet");
    expect(text).toContain("last seen 2026-11-23");
    expect(text).toContain("https://vigil.example.com/agents/3");
    await services.notifications.outbox.enqueue([id], sampleEvent("online"), "online:3:1");
    await waitFor(() => fake.received.length === 2, 10_000);
    expect(JSON.stringify(fake.received[1]!.json)).toContain("Agent back online: web-01");
  });
});

async function waitFor(ok: () => boolean, ms = 5_000) {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error("timed out");
    await Bun.sleep(20);
  }
}
