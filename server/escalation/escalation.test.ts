// Escalation policies end to end on both engines: a monitor's real check fails, the alert goes to its own channel and
// the policy's step 1 at once, step 2 after its wait, the last step and its repeat after theirs; each page once
// however often the timer looks and from however many nodes; the recovery reaches the channels the steps paged. A
// movable clock stands in for waiting.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { startFake, type Fake } from "../notifications/providers/test-fake";
import { testApp } from "../test-support";
import { createEscalation } from "./service";
import type { EscalationPolicy, TargetEscalation } from "./public";

const MIN = 60_000;
let hook: Fake;
let target: Server;
let targetUrl = "";
const opened: { services: Services; db: Db }[] = [];

beforeEach(async () => {
  hook = startFake(() => new Response("ok"));
  target = createServer((_req, res) => res.writeHead(500).end("x"));
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
});
afterEach(async () => {
  for (const { services, db } of opened.splice(0)) {
    await services.escalation.stop().catch(() => {});
    await services.notifications.stop().catch(() => {});
    await db.close().catch(() => {});
  }
  hook.stop();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
});

/** Titles and escalation lines that reached each channel (by its webhook path). */
const at = (path: string) =>
  hook.received.filter((r) => r.path === path).map((r) => {
    const m = r.json as { title: string; lines: string[] };
    return [m.title, m.lines.find((l) => l.startsWith("Escalation:")) ?? ""].filter(Boolean).join(" | ");
  });

async function setup() {
  const db = await testDb();
  let skew = 0;
  const now = () => Date.now() + skew;
  const services = await createServices(db, { now, notifications: { send: { timeoutMs: 1_000 } } });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  const channel = async (name: string) =>
    (await t.call<{ channel: { id: number } }>("POST", "/api/notifications/channels", { token, body: { name, type: "webhook", config: { url: `${hook.url}/${name}` } } })).body.channel.id;
  const own = await channel("own");
  const [lead, manager, director] = [await channel("lead"), await channel("manager"), await channel("director")];
  const saved = await t.call("PUT", "/api/notifications/settings", {
    token,
    body: {
      monitor: { enabled: true, channelIds: [own], events: { down: true, recovery: true }, reminderMinutes: 0 },
      agent: { enabled: true, channelIds: [own], events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
      language: "en-US",
      timeZone: "UTC",
    },
  });
  expect(saved.status).toBe(200);
  const monitor = (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name: "Shop", url: targetUrl, retries: 0, active: false } })).body.monitor.id;
  /** The rules and escalation handle what happened; the clock moves; the timer looks; the outbox sends what is due. */
  const advance = async (ms: number) => {
    await services.notifications.idle();
    await services.escalation.idle();
    skew += ms;
    await services.escalation.tick();
    skew += 1_000; // what the timer queued is due a moment later
    await services.notifications.outbox.tick();
  };
  const policy = (body: Record<string, unknown>) => t.call<{ policy: EscalationPolicy }>("POST", "/api/escalation-policies", { token, body });
  const escalationOf = async () => (await t.call<{ escalation: TargetEscalation }>("GET", `/api/monitors/${monitor}/escalation`, { token })).body.escalation;
  return { ...t, db, services, token, own, lead, manager, director, monitor, advance, policy, escalationOf, now };
}

const fail = async (s: Awaited<ReturnType<typeof setup>>) => expect((await s.call("POST", `/api/monitors/${s.monitor}/check`, { token: s.token })).status).toBe(200);

describe("escalation", () => {
  test("step 1 at once, step 2 after its wait, the last step and one repeat; each once; the paged hear the recovery", async () => {
    const s = await setup();
    const made = await s.policy({
      name: "Shop on-call",
      steps: [
        { channelIds: [s.lead], waitMinutes: 10 },
        { channelIds: [s.manager, s.own], waitMinutes: 20 },
        { channelIds: [s.director], waitMinutes: 1 },
      ],
      repeatEveryMinutes: 30,
      repeatLimit: 1,
      monitorIds: [s.monitor],
    });
    expect(made.status).toBe(201);
    await fail(s);
    await s.advance(1_000);
    expect(at("/own")).toEqual(["🔴 Monitor down: Shop"]);
    expect(at("/lead")).toEqual(["🔴 Monitor down: Shop | Escalation: step 1 of 3, not acknowledged"]);
    const first = await s.escalationOf();
    expect(first.policy).toMatchObject({ id: made.body.policy.id, name: "Shop on-call", source: { kind: "monitor", ref: String(s.monitor) } });
    expect(first.problems).toEqual([{ condition: "down", raisedAt: expect.any(Number), firedStep: 0, next: { step: 1, repeat: 0, at: first.problems[0]!.raisedAt + 10 * MIN, channelIds: [s.manager, s.own], people: [] } }]);

    // Looking again and again changes nothing; after 10 minutes the manager (the own channel already knows: not twice).
    await s.advance(5 * MIN);
    await s.advance(4 * MIN);
    expect(at("/manager")).toEqual([]);
    await s.advance(1 * MIN + 1_000);
    expect(at("/manager")).toEqual(["🔴 Monitor down: Shop | Escalation: step 2 of 3, not acknowledged"]);
    expect(at("/own")).toHaveLength(1);

    // Another node's timer over the same database at the same time pages nothing more.
    const other = createEscalation({ db: s.db, bus: s.services.events, outbox: s.services.notifications.outbox, channels: s.services.notifications.store, alerts: s.services.notifications.alerts, policies: s.services.escalation.policies, people: s.services.escalation.people, now: s.now });
    await other.tick();
    await s.advance(20 * MIN);
    await other.tick();
    await s.services.notifications.outbox.tick();
    expect(at("/director")).toEqual(["🔴 Monitor down: Shop | Escalation: step 3 of 3, not acknowledged"]);
    await s.advance(30 * MIN);
    await s.advance(60 * MIN);
    expect(at("/director")).toEqual(["🔴 Monitor down: Shop | Escalation: step 3 of 3, not acknowledged", "🔴 Monitor down: Shop | Escalation: step 3 of 3 (repeat 1), not acknowledged"]);
    expect(at("/lead")).toHaveLength(1);
    expect(at("/manager")).toHaveLength(1);
    expect((await s.escalationOf()).problems[0]!.next).toBeNull();

    // Recovered: its own channel as always, and each channel the steps paged, once.
    target.removeAllListeners("request");
    target.on("request", (_req, res) => res.writeHead(200).end("ok"));
    await s.call("POST", `/api/monitors/${s.monitor}/check`, { token: s.token });
    await s.advance(1_000);
    await s.advance(1_000);
    for (const path of ["/own", "/lead", "/manager", "/director"]) expect(at(path).at(-1)).toBe("🟢 Monitor recovered: Shop");
    expect(at("/own").filter((x) => x.startsWith("🟢"))).toHaveLength(1);
    expect((await s.escalationOf()).problems).toEqual([]);
  });

  test("escalated twice, acknowledged before the third step: no third page, and the two paged hear the recovery", async () => {
    const s = await setup();
    const steps = [
      { channelIds: [s.lead], waitMinutes: 10 },
      { channelIds: [s.manager], waitMinutes: 10 },
      { channelIds: [s.director], waitMinutes: 10 },
    ];
    expect((await s.policy({ name: "Three steps", steps, repeatEveryMinutes: 10, repeatLimit: 5, monitorIds: [s.monitor] })).status).toBe(201);
    await fail(s);
    await s.advance(1_000);
    await s.advance(10 * MIN);
    expect(at("/manager")).toEqual(["🔴 Monitor down: Shop | Escalation: step 2 of 3, not acknowledged"]);
    const acked = await s.call("POST", "/api/problems/ack", { token: s.token, body: { targetType: "monitor", targetId: s.monitor, condition: "down" } });
    expect(acked.status).toBe(200);
    await s.advance(10 * MIN);
    await s.advance(60 * MIN);
    expect(at("/director")).toEqual([]);
    expect(at("/lead")).toHaveLength(1);
    expect(at("/manager")).toHaveLength(1);

    target.removeAllListeners("request");
    target.on("request", (_req, res) => res.writeHead(200).end("ok"));
    await s.call("POST", `/api/monitors/${s.monitor}/check`, { token: s.token });
    await s.advance(1_000);
    await s.advance(1_000);
    for (const path of ["/own", "/lead", "/manager"]) expect(at(path).at(-1)).toBe("🟢 Monitor recovered: Shop");
    expect(at("/director")).toEqual([]);
  });

  test("a monitor with no channel of its own is escalated all the same; a group's policy, a tag's and the default apply in that order", async () => {
    const s = await setup();
    await s.call("PUT", `/api/notifications/settings/monitors/${s.monitor}`, { token: s.token, body: { enabled: true, channelIds: [], events: { down: true, recovery: true }, reminderMinutes: 0 } });
    const group = (await s.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token: s.token, body: { name: "Web", type: "group" } })).body.monitor.id;
    expect((await s.call("PUT", `/api/monitors/${s.monitor}`, { token: s.token, body: { parentId: group, tags: ["shop"] } })).status).toBe(200);
    const step = (id: number) => [{ channelIds: [id], waitMinutes: 5 }];
    expect((await s.policy({ name: "Default", steps: step(s.director), isDefault: true })).status).toBe(201);
    expect((await s.escalationOf()).policy).toMatchObject({ name: "Default", source: { kind: "default", ref: null } });
    expect((await s.policy({ name: "Tagged", steps: step(s.manager), tags: ["shop"] })).status).toBe(201);
    expect((await s.escalationOf()).policy).toMatchObject({ name: "Tagged", source: { kind: "tag", ref: "shop" } });
    expect((await s.policy({ name: "Web team", steps: step(s.lead), groupIds: [group] })).status).toBe(201);
    expect((await s.escalationOf()).policy).toMatchObject({ name: "Web team", source: { kind: "group", ref: String(group) } });

    await fail(s);
    await s.advance(1_000);
    expect(at("/own")).toEqual([]);
    expect(at("/lead")).toEqual(["🔴 Monitor down: Shop | Escalation: step 1 of 1, not acknowledged"]);
  });

  test("policies: bad input refused whole, one default, a target in one policy, viewers read only, deleting one stops its runs", async () => {
    const s = await setup();
    const bad: [Record<string, unknown>, number, RegExp][] = [
      [{ name: "x", steps: [] }, 400, /steps/],
      [{ name: " ", steps: [{ channelIds: [s.lead], waitMinutes: 5 }] }, 400, /name/],
      [{ name: "x", steps: [{ channelIds: [], waitMinutes: 5 }] }, 400, /1-20 channels, people and on-call schedules/],
      [{ name: "x", steps: [{ channelIds: [], userIds: [999], waitMinutes: 5 }] }, 400, /no active user 999/],
      [{ name: "x", steps: [{ channelIds: [], scheduleIds: [999], waitMinutes: 5 }] }, 400, /no on-call schedule 999/],
      [{ name: "x", steps: [{ channelIds: [], userIds: ["a"], waitMinutes: 5 }] }, 400, /userIds/],
      [{ name: "x", steps: [{ channelIds: [s.lead], waitMinutes: 0 }] }, 400, /waitMinutes/],
      [{ name: "x", steps: [{ channelIds: [999], waitMinutes: 5 }] }, 400, /no notification channel 999/],
      [{ name: "x", steps: [{ channelIds: [s.lead], waitMinutes: 5 }], monitorIds: [999] }, 400, /no monitor or group 999/],
      [{ name: "x", steps: [{ channelIds: [s.lead], waitMinutes: 5 }], repeatEveryMinutes: 0 }, 400, /repeatEveryMinutes/],
      [{ name: "x", steps: [{ channelIds: [s.lead], waitMinutes: 5 }], repeatLimit: 101 }, 400, /repeatLimit/],
    ];
    for (const [body, status, message] of bad) {
      const res = await s.policy(body);
      expect({ status: res.status, ok: message.test(String(res.body.message)) }).toEqual({ status, ok: true });
    }
    expect((await s.call<{ policies: unknown[] }>("GET", "/api/escalation-policies", { token: s.token })).body.policies).toEqual([]);

    const one = (await s.policy({ name: "A", steps: [{ channelIds: [s.lead], waitMinutes: 5 }], isDefault: true, monitorIds: [s.monitor] })).body.policy;
    const second = await s.policy({ name: "B", steps: [{ channelIds: [s.lead], waitMinutes: 5 }], isDefault: true });
    expect(second.status).toBe(409);
    expect(second.body.message).toContain('"A" is the default policy already');
    expect(second.body).toMatchObject({ code: "DEFAULT_POLICY_TAKEN", policy: "A" });
    const taken = await s.policy({ name: "C", steps: [{ channelIds: [s.lead], waitMinutes: 5 }], monitorIds: [s.monitor] });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: "TARGET_HAS_POLICY", policy: "A", targetKind: "monitor", targetRef: String(s.monitor) });
    expect((await s.call<{ policies: unknown[] }>("GET", "/api/escalation-policies", { token: s.token })).body.policies).toHaveLength(1);

    const viewer = await s.signUp("victor");
    expect((await s.call("PUT", `/api/users/${viewer.user.id}`, { token: s.token, body: { username: "victor", role: "viewer" } })).status).toBe(200);
    expect((await s.call("GET", `/api/escalation-policies/${one.id}`, { token: viewer.token })).status).toBe(200);
    expect((await s.call("POST", "/api/escalation-policies", { token: viewer.token, body: { name: "V", steps: [{ channelIds: [s.lead], waitMinutes: 5 }] } })).status).toBe(403);
    expect((await s.call("GET", "/api/escalation-policies/999", { token: s.token })).status).toBe(404);
    expect((await s.call("GET", "/api/monitors/999/escalation", { token: s.token })).status).toBe(404);

    await fail(s);
    await s.advance(1_000);
    expect((await s.escalationOf()).problems).toHaveLength(1);
    expect((await s.call("DELETE", `/api/escalation-policies/${one.id}`, { token: s.token })).status).toBe(200);
    expect(await s.escalationOf()).toEqual({ policy: null, problems: [] });
  });
});
