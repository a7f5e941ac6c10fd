import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { testApp } from "../test-support";
import { startFake, type Fake } from "./providers/test-fake";
import { CHANNEL_TYPES } from "./public";

// The notifications API: channels with masked secrets, the spec §8 validation messages, settings and per-target
// overrides, test sends with the provider's verdict, the delivery log.

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
  const services = await createServices(db, { notifications: { send: { endpoints: { telegram: fake.url, resend: fake.url }, timeoutMs: 500 } } });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  return { ...t, token };
}

type Setup = Awaited<ReturnType<typeof setup>>;
const creator = (call: Setup["call"], token: string) => (type: string, config: Record<string, unknown>) =>
  call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: type, type, config } });

const TG_TOKEN = `123456789:${"A".repeat(35)}`;

describe("channels", () => {
  test("create, list, read, update and delete; secrets are masked in every reply", async () => {
    const { call, token } = await setup();
    const created = await call<{ channel: any }>("POST", "/api/notifications/channels", {
      token,
      body: { name: " Ops chat ", type: "telegram", enabled: true, config: { botToken: TG_TOKEN, chatId: "-100123" } },
    });
    expect(created.status).toBe(201);
    const id = created.body.channel.id;
    expect(created.body.channel).toMatchObject({ name: "Ops chat", type: "telegram", enabled: true, config: { chatId: "-100123" } });
    expect(created.body.channel.config.botToken).toBe("••••AAAA");
    expect(created.body.channel.health).toEqual({ failing: false, consecutiveFailures: 0, lastSuccessAt: null, lastFailureAt: null, lastError: null });

    const list = await call<{ channels: any[] }>("GET", "/api/notifications/channels", { token });
    expect(list.body.channels.map((c) => c.id)).toEqual([id]);
    expect(JSON.stringify(list.body)).not.toContain(TG_TOKEN.slice(10));
    const one = await call<{ channel: any }>("GET", `/api/notifications/channels/${id}`, { token });
    expect(JSON.stringify(one.body)).not.toContain(TG_TOKEN.slice(10));

    // An edit that sends the mask back (or leaves the field out) keeps the token: the test still reaches the bot.
    const masked = one.body.channel.config.botToken;
    const renamed = await call<{ channel: any }>("PUT", `/api/notifications/channels/${id}`, {
      token,
      body: { name: "Ops", config: { botToken: masked, chatId: "-100999" } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.channel).toMatchObject({ name: "Ops", config: { chatId: "-100999", botToken: masked } });
    fake.answer(() => Response.json({ ok: true, result: {} }));
    expect((await call("POST", `/api/notifications/channels/${id}/test`, { token })).status).toBe(200);
    expect(fake.received.at(-1)!.path).toBe(`/bot${TG_TOKEN}/sendMessage`);
    expect((fake.received.at(-1)!.json as any).chat_id).toBe("-100999");

    expect((await call("PUT", `/api/notifications/channels/${id}`, { token, body: { enabled: false } })).body).toMatchObject({ channel: { enabled: false } });
    expect((await call("DELETE", `/api/notifications/channels/${id}`, { token })).status).toBe(200);
    expect((await call("GET", `/api/notifications/channels/${id}`, { token })).status).toBe(404);
    expect((await call("DELETE", `/api/notifications/channels/${id}`, { token })).body).toMatchObject({ success: false, code: "CHANNEL_NOT_FOUND" });
  });

  test("every channel type can be created", async () => {
    const { call, token } = await setup();
    const configs = {
      resend: { apiKey: "re_123456789abcdef", from: "Vigil <ops@example.com>", to: "a@example.com, b@example.com" },
      slack: { url: "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX" },
      telegram: { botToken: TG_TOKEN, chatId: "@ops" },
      webhook: { url: "https://example.com/hook", secret: "s3cret-s3cret" },
      dingtalk: { url: "https://oapi.dingtalk.com/robot/send?access_token=abcdef123456", secret: "SECabcdef123456" },
      wecom: { url: "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abcdef-123456" },
      feishu: { url: "https://open.feishu.cn/open-apis/bot/v2/hook/abcdef-123456", secret: "feishu-secret-1" },
    };
    for (const [type, config] of Object.entries(configs)) {
      const res = await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: type, type, config } });
      expect(res.status).toBe(201);
      const text = JSON.stringify(res.body.channel.config);
      for (const secret of ["re_123456789", "XXXXXXXXXXXX", "AAAAAAAA", "s3cret-s3", "access_token=abc", "SECabcdef", "key=abcdef", "hook/abcdef", "feishu-secret"]) {
        expect(text).not.toContain(secret);
      }
    }
    const resend = (await call<{ channels: any[] }>("GET", "/api/notifications/channels", { token })).body.channels.find((c) => c.type === "resend");
    expect(resend.config.to).toEqual(["a@example.com", "b@example.com"]);
  });

  test("spec §8 validation messages, and other bad input, are 400s with a code", async () => {
    const { call, token } = await setup();
    const cases: [unknown, string, string][] = [
      [{ name: "", type: "webhook", config: { url: "https://x.example/" } }, "CHANNEL_NAME_REQUIRED", "Channel name is required"],
      [{ name: "t", type: "telegram", config: { chatId: "1" } }, "BOT_TOKEN_REQUIRED", "Bot Token is required"],
      [{ name: "t", type: "telegram", config: { botToken: "123:short", chatId: "1" } }, "BOT_TOKEN_INVALID", "Invalid Bot Token format"],
      [{ name: "t", type: "telegram", config: { botToken: TG_TOKEN } }, "CHAT_ID_REQUIRED", "Chat ID is required"],
      [{ name: "r", type: "resend", config: { from: "a@b.co", to: ["c@d.co"] } }, "API_KEY_REQUIRED", "API Key is required"],
      [{ name: "r", type: "resend", config: { apiKey: "re_x", to: ["c@d.co"] } }, "SENDER_REQUIRED", "Sender is required"],
      [{ name: "r", type: "resend", config: { apiKey: "re_x", from: "Vigil ops@x", to: ["c@d.co"] } }, "SENDER_INVALID", "Invalid sender format"],
      [{ name: "r", type: "resend", config: { apiKey: "re_x", from: "a@b.co" } }, "RECIPIENT_REQUIRED", "Recipient is required"],
      [{ name: "w", type: "webhook", config: {} }, "WEBHOOK_URL_REQUIRED", "Webhook URL is required"],
      [{ name: "w", type: "webhook", config: { url: "ftp://x" } }, "WEBHOOK_URL_INVALID", "Webhook URL must start with http:// or https://"],
    ];
    for (const [body, code, message] of cases) {
      const res = await call("POST", "/api/notifications/channels", { token, body });
      expect([res.status, res.body.code, res.body.message]).toEqual([400, code, message]);
    }
    const badType = await call("POST", "/api/notifications/channels", { token, body: { name: "x", type: "pager", config: {} } });
    expect([badType.status, badType.body.code]).toEqual([400, "VALIDATION"]);
    expect(badType.body.message).toContain("pager");
    const badEnabled = await call("POST", "/api/notifications/channels", { token, body: { name: "x", type: "slack", enabled: "yes", config: {} } });
    expect(badEnabled.status).toBe(400);
    expect((await call("GET", "/api/notifications/channels/abc", { token })).status).toBe(400);
    expect((await call("GET", "/api/notifications/channels/99", { token })).status).toBe(404);
  });

  test("signed-in only", async () => {
    const { call } = await setup();
    for (const [method, path] of [["GET", "/api/notifications/channels"], ["POST", "/api/notifications/channels"], ["GET", "/api/notifications/settings"], ["GET", "/api/notifications/deliveries"]]) {
      expect((await call(method, path, { body: method === "POST" ? {} : undefined })).status).toBe(401);
    }
  });
});

describe("test sends", () => {
  test("the provider's verdict: 200 when it accepted, 502 with its error when it refused; both in the delivery log", async () => {
    const { call, token } = await setup();
    const id = (await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url: `${fake.url}/hook` } } })).body.channel.id;
    fake.answer(() => new Response("ok"));
    const ok = await call("POST", `/api/notifications/channels/${id}/test`, { token });
    expect(ok.status).toBe(200);
    expect((fake.received[0].json as any).events[0]).toMatchObject({ kind: "test", target: { type: "channel", id, name: "Hook" } });

    fake.answer(() => new Response("nope", { status: 403 }));
    const refused = await call("POST", `/api/notifications/channels/${id}/test`, { token });
    expect([refused.status, refused.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    expect(refused.body.message).toContain("403");

    const log = await call<{ deliveries: any[] }>("GET", `/api/notifications/deliveries?channelId=${id}`, { token });
    expect(log.body.deliveries.map((d) => [d.status, d.attempts, d.events[0].kind])).toEqual([
      ["failed", 1, "test"],
      ["sent", 1, "test"],
    ]);
    expect(log.body.deliveries[0].error).toContain("403");
    expect((await call("GET", "/api/notifications/deliveries?channelId=999", { token })).status).toBe(404);
    expect((await call("GET", "/api/notifications/deliveries?limit=0", { token })).status).toBe(400);
  });
});

describe("a webhook URL with a key", () => {
  const leaks = (body: unknown) => ["SECRETKEY123", "pw", btoa("user:pw")].filter((secret) => JSON.stringify(body).includes(secret));

  test("masked in every reply, kept when the mask comes back, and kept out of test errors, the channel's health and the log", async () => {
    const { call, token } = await setup();
    const url = `${fake.url.replace("//", "//user:pw@")}/hook?key=SECRETKEY123`;
    const masked = `${fake.url.replace("//", "//••••@")}/hook?••••`;
    const created = await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url } } });
    expect(created.status).toBe(201);
    expect(created.body.channel.config).toEqual({ url: masked });
    const id = created.body.channel.id;
    expect(leaks((await call("GET", "/api/notifications/channels", { token })).body)).toEqual([]);
    expect(leaks((await call("GET", `/api/notifications/channels/${id}`, { token })).body)).toEqual([]);

    // The mask sent back keeps the stored URL: the test reaches it with its query and credentials.
    const renamed = await call<{ channel: any }>("PUT", `/api/notifications/channels/${id}`, { token, body: { name: "Ops hook", config: { url: masked } } });
    expect(renamed.body.channel).toMatchObject({ name: "Ops hook", config: { url: masked } });
    expect((await call("POST", `/api/notifications/channels/${id}/test`, { token })).status).toBe(200);
    expect(fake.received.at(-1)!.path).toBe("/hook?key=SECRETKEY123");
    expect(fake.received.at(-1)!.headers.authorization).toBe(`Basic ${btoa("user:pw")}`);

    // A refusal that echoes the URL and the credentials it was sent.
    fake.answer((request) => new Response(`unknown ${fake.url}${request.path} for ${request.headers.authorization}`, { status: 500 }));
    const refused = await call("POST", `/api/notifications/channels/${id}/test`, { token });
    expect([refused.status, refused.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    expect(refused.body.message).toBe(`Webhook: HTTP 500: unknown ${fake.url}/hook•••• for Basic ••••`);
    const log = await call<{ deliveries: any[] }>("GET", `/api/notifications/deliveries?channelId=${id}`, { token });
    expect(log.body.deliveries[0]).toMatchObject({ status: "failed", error: refused.body.message });
    expect(leaks(log.body)).toEqual([]);
    const one = await call<{ channel: any }>("GET", `/api/notifications/channels/${id}`, { token });
    expect(one.body.channel.health.lastError).toBe(refused.body.message);
    expect(leaks(one.body)).toEqual([]);

    // Another URL replaces it.
    fake.answer(() => new Response("ok"));
    await call("PUT", `/api/notifications/channels/${id}`, { token, body: { config: { url: `${fake.url}/other?key=NEWKEY456` } } });
    expect((await call("POST", `/api/notifications/channels/${id}/test`, { token })).status).toBe(200);
    expect(fake.received.at(-1)!.path).toBe("/other?key=NEWKEY456");
  });
});

describe("settings", () => {
  const monitorPart = (channelIds: number[]) => ({ enabled: true, channelIds, events: { down: true, recovery: false }, reminderMinutes: 30 });
  const agentPart = (channelIds: number[], cpu = 80) => ({
    enabled: true,
    channelIds,
    events: { offline: true, online: true, cpu: true, memory: false, disk: true },
    thresholds: { cpu, memory: 90, disk: 95 },
  });

  test("defaults, save, and refusal of unknown channels and bad thresholds", async () => {
    const { call, token } = await setup();
    const initial = await call<{ settings: any }>("GET", "/api/notifications/settings", { token });
    expect(initial.body.settings).toMatchObject({
      monitor: { enabled: true, channelIds: [], events: { down: true, recovery: true }, reminderMinutes: 0 },
      agent: { thresholds: { cpu: 90, memory: 90, disk: 90 } },
      language: "zh-CN",
    });
    const id = (await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url: `${fake.url}/` } } })).body.channel.id;
    const saved = await call<{ settings: any }>("PUT", "/api/notifications/settings", {
      token,
      body: { monitor: monitorPart([id]), agent: agentPart([id]), language: "en-US", timeZone: "Asia/Shanghai" },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toMatchObject({ monitor: monitorPart([id]), agent: agentPart([id]), language: "en-US", timeZone: "Asia/Shanghai" });
    expect((await call<{ settings: any }>("GET", "/api/notifications/settings", { token })).body.settings.language).toBe("en-US");

    const unknown = await call("PUT", "/api/notifications/settings", { token, body: { monitor: monitorPart([999]), agent: agentPart([]) } });
    expect([unknown.status, unknown.body.code]).toEqual([400, "CHANNEL_UNKNOWN"]);
    const threshold = await call("PUT", "/api/notifications/settings", { token, body: { monitor: monitorPart([]), agent: agentPart([], 150) } });
    expect([threshold.status, threshold.body.code, threshold.body.message]).toEqual([400, "THRESHOLD_INVALID", "Thresholds are percentages from 1 to 100"]);
    const zone = await call("PUT", "/api/notifications/settings", { token, body: { monitor: monitorPart([]), agent: agentPart([]), timeZone: "Mars/Olympus" } });
    expect(zone.status).toBe(400);
    const missing = await call("PUT", "/api/notifications/settings", { token, body: { monitor: monitorPart([]) } });
    expect(missing.status).toBe(400);

    // Deleting a channel takes it out of the settings.
    await call("DELETE", `/api/notifications/channels/${id}`, { token });
    expect((await call<{ settings: any }>("GET", "/api/notifications/settings", { token })).body.settings.monitor.channelIds).toEqual([]);
  });

  test("a monitor's or agent's override replaces the global part; DELETE returns to it; unknown targets are 404", async () => {
    const { call, token, services } = await setup();
    const id = (await call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url: `${fake.url}/` } } })).body.channel.id;
    const monitor = await services.monitors.create({ name: "Shop", url: "http://127.0.0.1:9/", active: false });
    const path = `/api/notifications/settings/monitors/${monitor.id}`;
    const before = await call<{ settings: any; override: boolean }>("GET", path, { token });
    expect(before.body).toMatchObject({ override: false, settings: { channelIds: [], events: { down: true, recovery: true } } });
    const put = await call<{ settings: any; override: boolean }>("PUT", path, { token, body: monitorPart([id]) });
    expect(put.body).toMatchObject({ override: true, settings: monitorPart([id]) });
    expect((await services.notifications.store.effective("monitor", monitor.id)).channelIds).toEqual([id]);
    expect((await call("GET", "/api/notifications/settings/overrides", { token })).body).toMatchObject({ monitors: [monitor.id], agents: [] });
    expect((await call("GET", "/api/notifications/settings/overrides")).status).toBe(401);
    const back = await call<{ settings: any; override: boolean }>("DELETE", path, { token });
    expect(back.body).toMatchObject({ override: false, settings: { channelIds: [] } });

    expect((await call("GET", "/api/notifications/settings/monitors/999", { token })).body).toMatchObject({ success: false, code: "MONITOR_NOT_FOUND" });
    expect((await call("PUT", "/api/notifications/settings/agents/999", { token, body: agentPart([]) })).status).toBe(404);
    const agentToken = (await services.agents.createToken(1)).token;
    const agentId = await services.agents.register(agentToken, "db-1", { hostname: "db-1", ips: [], os: "", kernel: "", arch: "", uptime: 0, agentVersion: "0" });
    const aid = typeof agentId === "string" ? 0 : agentId.agent.id;
    const agentPath = `/api/notifications/settings/agents/${aid}`;
    expect((await call("PUT", agentPath, { token, body: agentPart([id], 0) })).body.code).toBe("THRESHOLD_INVALID");
    expect((await call<{ override: boolean }>("PUT", agentPath, { token, body: agentPart([id]) })).body.override).toBe(true);
    expect((await call("GET", "/api/notifications/settings/overrides", { token })).body).toMatchObject({ monitors: [], agents: [aid] });
    // Deleting the agent drops its override.
    await services.agents.remove(aid);
    await services.notifications.idle();
    expect(await services.notifications.store.getOverride("agent", aid)).toBeNull();
  });
});

// What the channel API checks and tells: each provider's URL shape (with a proxy host allowed), "is required" for
// every type's empty fields, and a failed send on the channel list.
describe("channel checks and health", () => {
  test("a URL of another shape is refused per provider with the provider's name and its URL's look", async () => {
    const { call, token } = await setup();
    const create = creator(call, token);
    const cases: [string, string, string][] = [
      ["slack", "https://api.slack.com/apps/A0123", "This is not a Slack webhook URL: it looks like https://hooks.slack.com/services/T…/B…/…"],
      ["dingtalk", "https://oapi.dingtalk.com/robot/send", "This is not a DingTalk webhook URL: it looks like https://oapi.dingtalk.com/robot/send?access_token=…"],
      ["wecom", "https://oapi.dingtalk.com/robot/send?access_token=abc", "This is not a WeCom webhook URL: it looks like https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…"],
      ["feishu", "https://open.feishu.cn/app", "This is not a Feishu / Lark webhook URL: it looks like https://open.feishu.cn/open-apis/bot/v2/hook/…"],
    ];
    for (const [type, url, message] of cases) {
      const res = await create(type, { url });
      expect([type, res.status, res.body.code, res.body.message]).toEqual([type, 400, "WEBHOOK_URL_SHAPE", message]);
    }
    const notUrl = await create("feishu", { url: "open.feishu.cn/open-apis/bot/v2/hook/x" });
    expect([notUrl.status, notUrl.body.code]).toEqual([400, "WEBHOOK_URL_INVALID"]);
  });

  test("a proxy host with the provider's path is accepted, and its masked URL sent back on edit is kept", async () => {
    const { call, token } = await setup();
    const create = creator(call, token);
    const url = "https://relay.corp.example/dingtalk/robot/send?access_token=abcdef0123456789";
    const created = await create("dingtalk", { url });
    expect(created.status).toBe(201);
    const masked = created.body.channel.config.url;
    expect(masked).not.toContain("abcdef0123");
    const edited = await call<{ channel: any }>("PUT", `/api/notifications/channels/${created.body.channel.id}`, { token, body: { name: "Renamed", config: { url: masked } } });
    expect([edited.status, edited.body.channel.name, edited.body.channel.config.url]).toEqual([200, "Renamed", masked]);
  });

  test("every type's empty required fields say 'is required'", async () => {
    const { call, token } = await setup();
    const create = creator(call, token);
    for (const type of CHANNEL_TYPES) {
      const res = await create(type, {});
      expect([type, res.status]).toEqual([type, 400]);
      expect(res.body.message).toEndWith("is required");
    }
  });

  test("a failed test send shows on the channel list: its error and when, not 'never sent'", async () => {
    const { call, token } = await setup();
    const create = creator(call, token);
    const id = (await create("webhook", { url: `${fake.url}/hook` })).body.channel.id;
    fake.answer(() => new Response("no such hook", { status: 404 }));
    const before = Date.now();
    const refused = await call("POST", `/api/notifications/channels/${id}/test`, { token });
    expect(refused.status).toBe(502);
    const [channel] = (await call<{ channels: any[] }>("GET", "/api/notifications/channels", { token })).body.channels;
    expect(channel.health).toMatchObject({ failing: false, consecutiveFailures: 1, lastSuccessAt: null });
    expect(channel.health.lastError).toContain("404");
    expect(channel.health.lastFailureAt).toBeGreaterThanOrEqual(before);
  });
});
