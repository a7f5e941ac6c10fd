// What alerts about the later check types carry for templates: the target line (never a secret) and the check's
// stable error code, through the real path: a postgres monitor's check fails its login, the rules raise the alert, the
// outbox renders the channel's template and the webhook receives it. The built-in message names the type and the
// target in both languages; the preview has a later type's sample.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { testApp } from "../test-support";
import { renderMessage } from "./messages";
import { startFake, type Fake } from "./providers/test-fake";
import { sampleEvent } from "./template-context";
import { webhookForEverything } from "./test-channel";

let hook: Fake;
const opened: { services: Services; db: Db; server?: Server }[] = [];
beforeEach(() => {
  hook = startFake(() => new Response("ok"));
});
afterEach(async () => {
  hook.stop();
  for (const { services, db } of opened.splice(0)) {
    await services.notifications.stop();
    await db.close();
  }
});

/**
 * A PostgreSQL server as far as a login refused: whatever the client sends first, it answers with the ErrorResponse a
 * real server gives a wrong password (SQLSTATE 28P01) and closes. The postgres type's own tests use a real server.
 */
async function refusingPostgres(): Promise<{ port: number; stop: () => void }> {
  const sockets: Socket[] = [];
  const fields = ["SFATAL", "VFATAL", "C28P01", 'Mpassword authentication failed for user "app"'].map((f) => Buffer.from(`${f}\0`));
  const payload = Buffer.concat([...fields, Buffer.from([0])]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(payload.length + 4);
  const reply = Buffer.concat([Buffer.from("E"), length, payload]);
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
    socket.once("data", () => socket.end(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => {
      sockets.forEach((s) => s.destroy());
      server.close();
    },
  };
}

async function setup() {
  const db = await testDb();
  const services = await createServices(db, { monitors: { tls: false }, notifications: { send: { timeoutMs: 1_000 } } });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  const channel = await webhookForEverything(t.call, token, `${hook.url}/hook`);
  return { ...t, token, services, channel };
}

test("a postgres monitor's down alert renders {{ facts.target }} and {{ facts.errorCode }}: its target and AUTH_FAILED", async () => {
  const t = await setup();
  const pg = await refusingPostgres();
  try {
    const body = '{"who": {{ target.name }}, "type": {{ facts.checkType }}, "target": {{ facts.target }}, "code": {{ facts.errorCode }}, "reason": {{ reason }}}';
    const saved = await t.call("PUT", `/api/notifications/channels/${t.channel}`, { token: t.token, body: { templates: { down: { body } } } });
    expect(saved.status).toBe(200);
    const created = await t.call<{ monitor: { id: number; target: string } }>("POST", "/api/monitors", {
      token: t.token,
      body: { name: "Orders DB", type: "postgres", active: false, retries: 0, settings: { host: "127.0.0.1", port: pg.port, database: "orders", username: "app", password: "hunter2-secret" } },
    });
    expect(created.status).toBe(201);
    const { id, target } = created.body.monitor;
    expect(target).toBe(`127.0.0.1:${pg.port}/orders`);
    const checked = await t.call<{ result: { status: string; error: string } }>("POST", `/api/monitors/${id}/check`, { token: t.token });
    expect(checked.body.result).toMatchObject({ status: "down", error: "authentication failed" });

    // The outbox gathers a burst for a moment before its first message leaves.
    await t.services.notifications.idle();
    for (const until = Date.now() + 5_000; hook.received.length === 0 && Date.now() < until; await Bun.sleep(50)) await t.services.notifications.outbox.tick();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.json).toEqual({ who: "Orders DB", type: "postgres", target, code: "AUTH_FAILED", reason: "Authentication failed" });
    expect(hook.received[0]!.body).not.toContain("hunter2-secret");
  } finally {
    pg.stop();
  }
});

test("the new names validate; an unknown one is still refused; the preview has a postgres sample", async () => {
  const t = await setup();
  const ok = await t.call("PUT", `/api/notifications/channels/${t.channel}`, {
    token: t.token,
    body: { templates: { down: { title: "{{ facts.target }} {{ facts.errorCode }}" }, reminder: { title: "{{ facts.target }} still {{ facts.errorCode }}" } } },
  });
  expect(ok.status).toBe(200);
  const bad = await t.call("PUT", `/api/notifications/channels/${t.channel}`, { token: t.token, body: { templates: { down: { title: "{{ facts.errorcode }}" } } } });
  expect([bad.status, bad.body.code]).toEqual([400, "TEMPLATE_INVALID"]);
  expect(bad.body.message).toContain("unknown variable: facts.errorcode");

  const preview = (checkType?: string) =>
    t.call<any>("POST", "/api/notifications/templates/preview", {
      token: t.token,
      body: { type: "slack", kind: "down", title: "{{ facts.checkType }}: {{ facts.target }} ({{ facts.errorCode }})", body: "", lang: "en-US", ...(checkType ? { checkType } : {}) },
    });
  expect((await preview()).body.title.text).toBe("http: https://shop.example.com/health (STATUS)");
  const pg = await preview("postgres");
  expect(pg.body.title.text).toBe("postgres: db.example.com:5432/orders (AUTH_FAILED)");
  expect(pg.body.body.text).toContain("Target: db.example.com:5432/orders");
  expect((await preview("redis")).status).toBe(400);
});

test("the built-in message names a later type and its target line, in both languages", () => {
  const event = sampleEvent("down", "postgres");
  const en = renderMessage([event], "en-US", "UTC");
  expect(en.title).toBe("🔴 Monitor down: Orders DB");
  expect(en.lines).toEqual(expect.arrayContaining(["Type: PostgreSQL", "Target: db.example.com:5432/orders", "Reason: Authentication failed"]));
  const zh = renderMessage([event], "zh-CN", "UTC");
  expect(zh.lines).toEqual(expect.arrayContaining(["类型: PostgreSQL", "目标: db.example.com:5432/orders"]));
  expect(zh.lines.some((line) => line.startsWith("原因: "))).toBe(true);
  // The new facts add no line of their own: the target is stated once.
  expect(en.lines.filter((line) => line.includes("db.example.com"))).toHaveLength(1);
  expect(en.lines.join("\n")).not.toContain("AUTH_FAILED");
});
