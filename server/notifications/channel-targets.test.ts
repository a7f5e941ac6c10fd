import { afterEach, describe, expect, test } from "bun:test";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import type { TargetPolicy } from "../net/targets";
import { testApp } from "../test-support";

// The address policy on a channel's save (both engines): where a channel sends (a webhook-style URL, a self-hosted
// server, an SMTP host) is refused on create and on update when the policy forbids it as written, with the monitors'
// message; link-local always, loopback and private ranges with --block-private-targets.

const opened: { services: Services; db: Db }[] = [];
afterEach(async () => {
  for (const { services, db } of opened.splice(0)) {
    await services.notifications.stop();
    await db.close();
  }
});

async function setup(targets?: TargetPolicy) {
  const db = await testDb();
  const services = await createServices(db, { targets });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  const create = (type: string, config: Record<string, unknown>) => t.call<{ channel: any }>("POST", "/api/notifications/channels", { token, body: { name: type, type, config } });
  const update = (id: number, config: Record<string, unknown>) => t.call<{ channel: any }>("PUT", `/api/notifications/channels/${id}`, { token, body: { config } });
  /** What a monitor at this URL is told on save under the same policy. */
  const monitorMessage = async (url: string) => (await t.call("POST", "/api/monitors", { token, body: { name: "m", url } })).body.message;
  return { ...t, token, create, update, monitorMessage };
}

const smtp = (host: string) => ({ host, port: 25, security: "none", from: "ops@example.com", to: "a@example.com" });
const block = { allowPrivate: false };

describe("--block-private-targets refuses channels on save", () => {
  test("webhook and SMTP at 127.0.0.1: 400 on create, with the monitors' message", async () => {
    const t = await setup(block);
    const message = await t.monitorMessage("http://127.0.0.1:8080/hook");
    expect(message).toBe("127.0.0.1 is a private or local address, which this instance does not allow as a target");
    for (const [type, config] of [
      ["webhook", { url: "http://127.0.0.1:8080/hook" }],
      ["smtp", smtp("127.0.0.1")],
      ["smtp", smtp("2130706433")],
    ] as const) {
      const res = await t.create(type, config);
      expect([type, res.status, res.body.success, res.body.code, res.body.message]).toEqual([type, 400, false, "TARGET_FORBIDDEN", message]);
    }
    expect((await t.call<{ channels: unknown[] }>("GET", "/api/notifications/channels", { token: t.token })).body.channels).toEqual([]);
  });

  test("webhook and SMTP moved to 127.0.0.1 by an edit: 400, the channel unchanged", async () => {
    const t = await setup(block);
    const hook = await t.create("webhook", { url: "https://hooks.example.com/vigil" });
    const mail = await t.create("smtp", smtp("mail.example.com"));
    expect([hook.status, mail.status]).toEqual([201, 201]);
    const movedHook = await t.update(hook.body.channel.id, { url: "http://127.0.0.1:8080/hook" });
    expect([movedHook.status, movedHook.body.code]).toEqual([400, "TARGET_FORBIDDEN"]);
    const movedMail = await t.update(mail.body.channel.id, smtp("127.0.0.1"));
    expect([movedMail.status, movedMail.body.code]).toEqual([400, "TARGET_FORBIDDEN"]);
    expect(movedMail.body.message).toBe(movedHook.body.message);
    const kept = (await t.call<{ channel: any }>("GET", `/api/notifications/channels/${mail.body.channel.id}`, { token: t.token })).body.channel;
    expect(kept.config.host).toBe("mail.example.com");
  });

  test("every field a channel sends to: self-hosted servers, the Matrix homeserver, chat webhook URLs (via a relay), localhost", async () => {
    const t = await setup(block);
    for (const [type, config] of [
      ["ntfy", { server: "http://10.0.0.5", topic: "ops" }],
      ["gotify", { server: "http://192.168.1.2:8080", token: "Axxxxxxxxxxxxxx" }],
      ["bark", { server: "http://[::1]:8080", deviceKey: "abcdef" }],
      ["matrix", { homeserver: "http://172.16.0.1:8008", accessToken: "syt_token", roomId: "!room:example.org" }],
      ["slack", { url: "http://127.1/services/T000/B000/XXXX" }],
      ["mattermost", { url: "http://localhost:8065/hooks/abc" }],
      ["smtp", smtp("localhost")],
    ] as const) {
      const res = await t.create(type, config);
      expect([type, res.status, res.body.code]).toEqual([type, 400, "TARGET_FORBIDDEN"]);
    }
    expect((await t.create("ntfy", { server: "https://ntfy.sh", topic: "ops" })).status).toBe(201);
  });
});

describe("without --block-private-targets", () => {
  test("webhook and SMTP at 127.0.0.1 are saved, created and edited; an SMTP address in another spelling is kept as the address", async () => {
    const t = await setup();
    const hook = await t.create("webhook", { url: "http://127.0.0.1:8080/hook" });
    const mail = await t.create("smtp", smtp("2130706433"));
    expect([hook.status, mail.status]).toEqual([201, 201]);
    expect(mail.body.channel.config.host).toBe("127.0.0.1");
    expect((await t.update(hook.body.channel.id, { url: "http://10.0.0.5/hook" })).status).toBe(200);
  });

  test("the metadata address is refused still, in any spelling", async () => {
    const t = await setup();
    const message = await t.monitorMessage("http://169.254.169.254/");
    for (const [type, config] of [
      ["webhook", { url: "http://169.254.169.254/latest" }],
      ["webhook", { url: "http://2852039166/latest" }],
      ["smtp", smtp("0xa9fea9fe")],
      ["ntfy", { server: "http://[::ffff:169.254.169.254]", topic: "ops" }],
    ] as const) {
      const res = await t.create(type, config);
      expect([type, res.status, res.body.code, res.body.message]).toEqual([type, 400, "TARGET_FORBIDDEN", message]);
    }
  });
});
