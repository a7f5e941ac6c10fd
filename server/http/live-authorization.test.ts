// Issue 37: the live socket tells each caller exactly what its REST calls show (one view per role), and a session held
// back by "two-factor sign-in for everyone" gets no live socket. The authorization matrix and the leak scan, run over
// /api/live: each principal subscribes, every kind of event forwarded is triggered, and what each receives is compared
// with what its own REST calls answer.
import { afterEach, describe, expect, test } from "bun:test";
import { Secret, TOTP } from "otpauth";
import { testHost, testSample } from "../agents/test-fixtures";
import { PASSWORD, testApp } from "../test-support";

// What viewers must never be shown (a URL's password, a header value, a request body; the push token is added once
// known), and what REST shows no one (the address an agent's reports come from).
const URL_SECRET = "url-pass-7f3a";
const HEADER_SECRET = "header-value-9c1e";
const BODY_SECRET = "request-body-4d2b";
const AGENT_ADDRESS = "10.66.77.88";

interface Message {
  type: string;
  data: any;
}
interface LiveSocket {
  messages: Message[];
  raw: string[];
  closed: Promise<number>;
  ws: WebSocket;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An app listening on 127.0.0.1 with an admin (alice), an editor (bob) and a viewer (vera), and a target that answers 200. */
async function listening() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const editor = await t.signUp("bob");
  const viewer = await t.signUp("vera");
  expect((await t.call("PUT", `/api/users/${viewer.user.id}`, { token: admin.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
  const target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
  cleanups.push(() => target.stop(true));
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  const port = t.app.server!.port!;
  cleanups.push(async () => {
    t.services.live.close();
    await t.app.stop(true);
  });

  async function open(token: string): Promise<LiveSocket> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live?token=${token}`);
    const socket: LiveSocket = { messages: [], raw: [], ws, closed: new Promise((resolve) => (ws.onclose = (e) => resolve(e.code))) };
    ws.onmessage = (e) => {
      socket.raw.push(String(e.data));
      socket.messages.push(JSON.parse(String(e.data)));
    };
    for (let i = 0; i < 200 && socket.messages.length === 0; i++) await Bun.sleep(10);
    expect(socket.messages.map((m) => m.type)).toEqual(["hello"]);
    cleanups.push(() => ws.close());
    return socket;
  }

  /** How /api/live answers a WebSocket handshake with this token (raw: fetch drops the upgrade headers). */
  async function refusal(token: string) {
    const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data: (s, chunk) => void (s.data.reply += chunk.toString()) }, data: { reply: "" } });
    socket.write(
      `GET /api/live?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    for (let i = 0; i < 200 && !socket.data.reply.includes("}"); i++) await Bun.sleep(10);
    socket.end();
    const [head, body] = socket.data.reply.split("\r\n\r\n");
    const status = Number(head.split(" ")[1]);
    return { status, body: (status >= 400 ? JSON.parse(body) : null) as { success: boolean; message?: string; code?: string } | null };
  }

  /** Whether a WebSocket with this token is closed without ever being told anything. */
  async function shutOut(token: string) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live?token=${token}`);
    const told: string[] = [];
    ws.onmessage = (e) => told.push(String(e.data));
    const code = await Promise.race([new Promise<number>((resolve) => (ws.onclose = (e) => resolve(e.code))), Bun.sleep(2000).then(() => -1)]);
    ws.close();
    return code !== -1 && told.length === 0;
  }

  const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate();
  /** Turns two-factor sign-in on for a user (their session stays good). */
  async function enrol(who: { token: string }) {
    const setup = await t.call<{ secret: string }>("POST", "/api/auth/2fa/setup", { token: who.token, body: { currentPassword: PASSWORD } });
    expect((await t.call("POST", "/api/auth/2fa/enable", { token: who.token, body: { code: code(setup.body.secret) } })).status).toBe(200);
  }
  const requireTwoFactor = async (required: boolean) =>
    expect((await t.call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required } })).status).toBe(200);

  return { ...t, admin, editor, viewer, targetPort: target.port, open, refusal, shutOut, enrol, requireTwoFactor };
}

/** Waits until `done` holds (or about two seconds passed). */
async function until(done: () => boolean) {
  for (let i = 0; i < 200 && !done(); i++) await Bun.sleep(10);
}

describe("live messages carry each role's view", () => {
  test("a viewer told a monitor's status change never sees the password in its URL (the REST view's target)", async () => {
    const t = await listening();
    const socket = await t.open(t.viewer.token);
    const created = await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", {
      token: t.admin.token,
      body: { name: "Billing", url: `http://u:${URL_SECRET}@127.0.0.1:${t.targetPort}/x` },
    });
    expect(created.status).toBe(201);
    const id = created.body.monitor.id;
    expect((await t.call("POST", `/api/monitors/${id}/check`, { token: t.admin.token })).status).toBe(200);
    await until(() => socket.messages.some((m) => m.type === "monitor.status"));
    const status = socket.messages.find((m) => m.type === "monitor.status")!;
    expect(status.data).toMatchObject({ monitorId: id, to: "up" });
    expect(socket.raw.filter((r) => r.includes(URL_SECRET))).toEqual([]);
    const rest = await t.call<{ monitor: { target: string } }>("GET", `/api/monitors/${id}`, { token: t.viewer.token });
    expect(status.data.url).toBe(rest.body.monitor.target);
  });
});

describe("a session held back by the two-factor policy", () => {
  test("gets no live socket: 403 TWO_FACTOR_SETUP_REQUIRED before the upgrade, as every REST route answers it", async () => {
    const t = await listening();
    await t.enrol(t.admin);
    await t.requireTwoFactor(true);
    const rest = await t.call("GET", "/api/monitors", { token: t.editor.token });
    expect([rest.status, rest.body.code]).toEqual([403, "TWO_FACTOR_SETUP_REQUIRED"]);
    const live = await t.refusal(t.editor.token);
    expect(live.status).toBe(403);
    expect(live.body).toMatchObject({ success: false, code: "TWO_FACTOR_SETUP_REQUIRED" });
    expect(live.body?.message).toBeString();
    expect(await t.shutOut(t.editor.token)).toBe(true);
    // Once the second factor is on, the same session opens it.
    await t.enrol(t.editor);
    await t.open(t.editor.token);
  });

  test("a socket opened before the policy required two-factor is closed instead of being told more", async () => {
    const t = await listening();
    await t.enrol(t.admin);
    const socket = await t.open(t.editor.token);
    await t.requireTwoFactor(true);
    await t.call("POST", "/api/monitors", { token: t.admin.token, body: { name: "After", url: "http://127.0.0.1:9/x" } });
    const closed = await Promise.race([socket.closed, Bun.sleep(2000).then(() => -1)]);
    expect(closed).not.toBe(-1);
    expect(closed).not.toBe(4001); // not "signed out": the session is good for setting up the second factor
    expect(socket.messages.map((m) => m.type)).toEqual(["hello"]);
  });
});

// Monitor fields that move with each check or with time: a monitor.change sent before the last check states them as
// they were then. The events that report them (monitor.status, monitor.check, maintenance.change) are compared instead.
const MOVING = new Set(["status", "statusChangedAt", "consecutiveFailures", "lastCheckedAt", "responseTime", "httpStatus", "lastError", "uptime24h", "tlsExpiresAt", "ping", "heartbeat", "lastPushAt", "maintenance"]);
/** What agent.status may say: its REST fields are name, status (as `to`) and lastSeenAt; the rest describe the event. */
const AGENT_STATUS_FIELDS = new Set(["agentId", "name", "from", "to", "at", "lastSeenAt", "remote", "maintenance"]);
const LIVE_TYPES = ["monitor.status", "monitor.check", "monitor.change", "agent.status", "agent.report", "agent.change", "maintenance.change", "problem.change"];

/** The last message of a type about each monitor or agent (by the id field named). */
function lastBy(messages: Message[], type: string, idField: string): Map<number, any> {
  const last = new Map<number, any>();
  for (const m of messages) if (m.type === type) last.set(m.data[idField], m.data);
  return last;
}

describe("the authorization matrix on /api/live", () => {
  test("admin, editor and viewer each receive every kind of event as their REST calls show it; a pending session is refused; nothing leaks", async () => {
    const t = await listening();
    const pending = await t.signUp("pat");
    for (const who of [t.admin, t.editor, t.viewer]) await t.enrol(who);
    await t.requireTwoFactor(true);
    const principals = { admin: t.admin, editor: t.editor, viewer: t.viewer };
    const sockets = {} as Record<keyof typeof principals, LiveSocket>;
    for (const [name, who] of Object.entries(principals)) sockets[name as keyof typeof principals] = await t.open(who.token);
    // The pending session: refused by REST and by the live socket alike.
    expect((await t.call("GET", "/api/monitors", { token: pending.token })).body.code).toBe("TWO_FACTOR_SETUP_REQUIRED");
    expect((await t.refusal(pending.token)).body?.code).toBe("TWO_FACTOR_SETUP_REQUIRED");
    expect(await t.shutOut(pending.token)).toBe(true);

    // Every kind of event, by admins and editors.
    const admin = { token: t.admin.token };
    const editor = { token: t.editor.token };
    const ok = async (res: Promise<{ status: number; body: any }>) => {
      const r = await res;
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      return r.body;
    };
    // A channel for alerts, so a monitor going down is an open problem (problem.change), which an editor acknowledges.
    const hook = (await ok(t.call("POST", "/api/notifications/channels", { ...admin, body: { name: "Hook", type: "webhook", config: { url: `http://127.0.0.1:${t.targetPort}/hook` } } }))).channel;
    const everything = { enabled: true, channelIds: [hook.id], reminderMinutes: 0, events: { down: true, recovery: true } };
    await ok(t.call("PUT", "/api/notifications/settings", { ...admin, body: { monitor: everything, agent: { ...everything, events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } }, language: "en-US", timeZone: "UTC" } }));
    const billing = (await ok(t.call("POST", "/api/monitors", {
      ...admin,
      body: { name: "Billing", url: `http://u:${URL_SECRET}@127.0.0.1:${t.targetPort}/x`, method: "POST", headers: [{ name: "X-Api-Key", value: HEADER_SECRET }], body: BODY_SECRET },
    }))).monitor;
    const job = (await ok(t.call("POST", "/api/monitors", { ...editor, body: { name: "Nightly job", type: "push" } }))).monitor;
    const gone = (await ok(t.call("POST", "/api/monitors", { ...admin, body: { name: "Old", url: "http://127.0.0.1:9/", active: false } }))).monitor;
    await ok(t.call("PUT", `/api/monitors/${billing.id}`, { ...editor, body: { name: "Billing API" } }));
    await ok(t.call("DELETE", `/api/monitors/${gone.id}`, admin));
    await ok(t.call("POST", `/api/monitors/${billing.id}/check`, editor)); // pending → up
    await ok(t.call("GET", `/api/push/${job.pushToken}?status=down&msg=disk%20full`)); // pending → down
    await t.services.notifications.idle();
    await ok(t.call("POST", "/api/problems/ack", { ...editor, body: { targetType: "monitor", targetId: job.id, condition: "down" } }));
    const register = async (name: string) => {
      const { token } = await ok(t.call("POST", "/api/agents/tokens", admin));
      return (await ok(t.call("POST", "/api/agents/register", { body: { token, name, host: testHost } }))).agentId as number;
    };
    const web = await register("web-1");
    const spare = await register("spare");
    await ok(t.call("PUT", `/api/agents/${web}`, { ...editor, body: { name: "Web 1", location: "Frankfurt" } }));
    // The address a report came from: on the bus for notifications, shown by no REST reply.
    t.services.agents.ingest(web, { host: testHost, interval: 10, samples: [testSample(Date.now())] }, AGENT_ADDRESS);
    await ok(t.call("DELETE", `/api/agents/${spare}`, admin));
    await ok(t.call("POST", "/api/maintenance/start", { ...editor, body: { monitorIds: [billing.id], agentIds: [web], minutes: 30 } }));

    const secrets = [URL_SECRET, HEADER_SECRET, BODY_SECRET, job.pushToken as string];
    for (const [name, who] of Object.entries(principals)) {
      const socket = sockets[name as keyof typeof principals];
      await until(() => socket.messages.some((m) => m.type === "maintenance.change"));
      const got = new Set(socket.messages.map((m) => m.type));
      expect(LIVE_TYPES.filter((type) => !got.has(type))).toEqual([]);
      const get = async (path: string) => (await t.call<any>("GET", path, { token: who.token })).body;
      const replies: unknown[] = [];
      const rest = async (path: string) => {
        const body = await get(path);
        replies.push(body);
        return body;
      };
      const wrong: string[] = [];
      const same = (what: string, live: unknown, shown: unknown) => {
        if (!Bun.deepEquals(live, shown)) wrong.push(`${name}: ${what}: live ${JSON.stringify(live)}, REST ${JSON.stringify(shown)}`);
      };

      for (const [id, e] of lastBy(socket.messages, "monitor.change", "monitorId")) {
        const reply = await rest(`/api/monitors/${id}`);
        if (e.action === "deleted") {
          same(`monitor ${id} deleted`, false, reply.success);
          continue;
        }
        for (const [key, value] of Object.entries(e.monitor)) if (!MOVING.has(key)) same(`monitor ${id} ${key}`, value, reply.monitor?.[key]);
      }
      for (const [id, e] of lastBy(socket.messages, "monitor.status", "monitorId")) {
        const { monitor } = await rest(`/api/monitors/${id}`);
        same(`monitor ${id} status`, [e.name, e.type, e.url, e.to], [monitor.name, monitor.type, monitor.target, monitor.status]);
      }
      for (const [id, e] of lastBy(socket.messages, "monitor.check", "monitorId")) {
        const { checks } = await rest(`/api/monitors/${id}/checks`);
        const { monitorId: _, ...result } = e.result;
        same(`monitor ${id} check`, result, checks.find((c: { time: number }) => c.time === result.time));
        same(`monitor ${id} check status`, e.status, (await rest(`/api/monitors/${id}`)).monitor.status);
      }
      for (const [id, e] of lastBy(socket.messages, "agent.report", "id")) {
        const { agent } = await rest(`/api/agents/${id}`);
        for (const [key, value] of Object.entries(e)) same(`agent ${id} ${key}`, value, agent?.[key]);
      }
      for (const [id, e] of lastBy(socket.messages, "agent.status", "agentId")) {
        const { agent } = await rest(`/api/agents/${id}`);
        same(`agent ${id} status`, [e.name, e.to, e.lastSeenAt], [agent.name, agent.status, agent.lastSeenAt]);
        same(`agent ${id} status fields`, Object.keys(e).filter((key) => !AGENT_STATUS_FIELDS.has(key)), []);
      }
      for (const [id, e] of lastBy(socket.messages, "agent.change", "agentId")) same(`agent ${id} ${e.kind}`, e.kind !== "deleted", (await rest(`/api/agents/${id}`)).success);
      const { problems } = await rest("/api/problems");
      const changes = socket.messages.filter((m) => m.type === "problem.change").map((m) => m.data);
      same("problem changes", changes.map((e) => e.action), ["raised", "acknowledged"]);
      const { remote: _, ...last } = changes.at(-1) ?? {};
      same("problem", last.problem, problems.find((p: { targetId: number }) => p.targetId === job.id));
      for (const e of socket.messages.filter((m) => m.type === "maintenance.change").map((m) => m.data)) {
        for (const id of e.monitors.entered) same(`monitor ${id} in maintenance`, true, (await rest(`/api/monitors/${id}`)).monitor.maintenance);
        for (const id of e.agents.entered) same(`agent ${id} in maintenance`, true, (await rest(`/api/agents/${id}`)).agent.maintenance);
      }
      replies.push(await get("/api/monitors"), await get("/api/agents"));
      expect(wrong).toEqual([]);

      // The leak scan, over live messages and REST replies alike.
      const live = socket.raw.join("\n");
      expect(live).not.toContain(AGENT_ADDRESS);
      if (name === "viewer") {
        expect(secrets.filter((s) => live.includes(s))).toEqual([]);
        expect(secrets.filter((s) => JSON.stringify(replies).includes(s))).toEqual([]);
      } else {
        // Admins and editors are shown them (so the scan above looked at messages that carried them).
        expect(secrets.filter((s) => !live.includes(s))).toEqual([]);
      }
    }
  });
});
