import { afterEach, describe, expect, test } from "bun:test";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { silentLogger } from "../log";
import type { HostInfo, Sample } from "./protocol";
import { AgentService, offlineAfterMs, type AgentStatusEvent } from "./service";
import { createAgentStore } from "./store";

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const host: HostInfo = { hostname: "h", ips: [], os: "Linux", kernel: "6", arch: "x64", uptime: 1, agentVersion: "t" };
const sample = (time: number, cpu: number): Sample => ({
  time,
  cpu: { usage: cpu, cores: 1, model: "m" },
  memory: { total: 100, used: 50, free: 50, usageRate: 50 },
  disks: [],
  network: [],
  load: { one: cpu / 10, five: 0, fifteen: 0 },
});

const opened: Db[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

/** A service over a test database (server/db/test-db.ts) with a clock the test moves. */
async function setup(start = Date.UTC(2026, 0, 1, 12, 0, 0)) {
  const db = await testDb();
  opened.push(db);
  const [user] = await db.orm.insert(db.t.users).values({ username: "u", passwordHash: "h", createdAt: 0, updatedAt: 0 }).returning();
  const clock = { now: start };
  const events: AgentStatusEvent[] = [];
  const store = createAgentStore(db);
  const make = () =>
    AgentService.create({
      store,
      log: silentLogger,
      now: () => clock.now,
      onStatus: (e) => events.push(e),
    });
  const service = await make();
  const { token } = await service.createToken(user!.id);
  const reg = await service.register(token, "a", host);
  if (typeof reg === "string") throw new Error(reg);
  return { db, store, clock, events, service, make, userId: user!.id, id: reg.agent.id };
}

describe("presence", () => {
  test("connecting → online on the first report → offline after 3 missed intervals", async () => {
    const { service, clock, events, id } = await setup();
    expect(service.get(id)!.status).toBe("connecting");
    service.ingest(id, { host, interval: 20, samples: [sample(clock.now, 1)] });
    expect(service.get(id)!.status).toBe("online");
    clock.now += 59_000;
    service.checkPresence();
    expect(service.get(id)!.status).toBe("online");
    clock.now += 1_000; // 3 × 20 s
    service.checkPresence();
    expect(service.get(id)!.status).toBe("offline");
    service.ingest(id, { host, interval: 20, samples: [sample(clock.now, 1)] });
    expect(events.map((e) => `${e.from}→${e.to}`)).toEqual(["connecting→online", "online→offline", "offline→online"]);
  });

  test("never offline sooner than 30 s", () => {
    expect(offlineAfterMs(1)).toBe(30_000);
    expect(offlineAfterMs(10)).toBe(30_000);
    expect(offlineAfterMs(60)).toBe(180_000);
  });

  test("a restart remembers agents, their newest sample and whether they are still fresh", async () => {
    const { service, make, clock, events, id } = await setup();
    service.ingest(id, { host: { ...host, ips: ["10.0.0.7", "fe80::1"] }, interval: 10, samples: [sample(clock.now, 42)] }, "192.0.2.9");
    await service.flush();
    clock.now += 5_000;
    const restarted = await make();
    expect(restarted.get(id)).toMatchObject({ status: "online", interval: 10, ips: ["10.0.0.7", "fe80::1"], lastSeenAt: clock.now - 5_000, latest: { cpu: { usage: 42 } } });
    clock.now += 60_000;
    expect((await make()).get(id)!.status).toBe("offline");
    // The address of the last report was written with it: the offline notice states it.
    restarted.checkPresence();
    expect(events.at(-1)).toMatchObject({ agentId: id, to: "offline", lastAddress: "192.0.2.9" });
  });
});

describe("rollups and retention", () => {
  test("closed minutes and hours get avg and max; re-running changes nothing", async () => {
    const { service, store, clock, id } = await setup();
    const t0 = clock.now; // 12:00:00
    service.ingest(id, { host, interval: 10, samples: [10, 20, 30, 40, 50, 60].map((cpu, i) => sample(t0 + i * 10_000, cpu)) });
    service.ingest(id, { host, interval: 10, samples: [sample(t0 + MINUTE, 100)] });
    clock.now = t0 + 2 * MINUTE;
    await service.rollUpAndPrune();
    const minutes = await store.range(id, "minute", t0, t0 + HOUR);
    expect(minutes.map((m) => [m.time - t0, m.avg.cpu, m.max.cpu])).toEqual([[0, 35, 60], [MINUTE, 100, 100]]);
    const hours = await store.range(id, "hour", t0, t0 + HOUR);
    expect(hours.map((h) => [h.avg.cpu, h.max.cpu])).toEqual([[67.5, 100]]);
    await service.rollUpAndPrune();
    expect(await store.range(id, "minute", t0, t0 + HOUR)).toEqual(minutes);
    expect(await store.range(id, "hour", t0, t0 + HOUR)).toEqual(hours);
  });

  test("a backlog sent after an outage is rolled into its own (old) minutes", async () => {
    const { service, store, clock, id } = await setup();
    const t0 = clock.now;
    clock.now = t0 + 2 * HOUR;
    await service.rollUpAndPrune(); // nothing yet
    const backlog = Array.from({ length: 12 }, (_, i) => sample(t0 + i * 10_000, i < 6 ? 10 : 20));
    service.ingest(id, { host, interval: 10, samples: backlog });
    clock.now += MINUTE;
    await service.rollUpAndPrune();
    expect((await store.range(id, "minute", t0, t0 + HOUR)).map((m) => m.avg.cpu)).toEqual([10, 20]);
    expect((await store.range(id, "hour", t0, t0 + HOUR)).map((h) => h.avg.cpu)).toEqual([15]);
  });

  test("a restart catches up on minutes it did not roll up", async () => {
    const { service, make, store, clock, id } = await setup();
    const t0 = clock.now;
    service.ingest(id, { host, interval: 10, samples: [sample(t0, 10), sample(t0 + MINUTE, 30)] });
    await service.flush(); // written, never rolled up: the process "crashes" here
    clock.now = t0 + 10 * MINUTE;
    await (await make()).rollUpAndPrune();
    expect((await store.range(id, "minute", t0, t0 + HOUR)).map((m) => m.avg.cpu)).toEqual([10, 30]);
  });

  test("raw samples go after 24 h, minutes after 30 d", async () => {
    const { service, store, clock, id } = await setup();
    const t0 = clock.now;
    service.ingest(id, { host, interval: 10, samples: [sample(t0, 10)] });
    clock.now = t0 + 2 * MINUTE;
    await service.rollUpAndPrune();
    clock.now = t0 + DAY + MINUTE;
    await service.rollUpAndPrune();
    expect(await store.range(id, "raw", 0, clock.now)).toEqual([]);
    expect(await store.range(id, "minute", 0, clock.now)).toHaveLength(1);
    clock.now = t0 + 31 * DAY;
    await service.rollUpAndPrune();
    expect(await store.range(id, "minute", 0, clock.now)).toEqual([]);
    expect(await store.range(id, "hour", 0, clock.now)).toHaveLength(1);
  });
});

describe("batched writes", () => {
  test("reports of several agents share a batch; a sample sent twice is stored once, the later copy winning", async () => {
    const { service, store, clock, make, userId, id } = await setup();
    const reg = await service.register((await service.createToken(userId)).token, "b", { ...host, hostname: "h2" });
    if (typeof reg === "string") throw new Error(reg);
    const other = reg.agent.id;
    const t0 = clock.now;
    service.ingest(id, { host, interval: 10, samples: [sample(t0, 10), sample(t0 + 10_000, 20)] });
    service.ingest(other, { host, interval: 5, samples: [sample(t0, 70)] });
    service.ingest(id, { host, interval: 10, samples: [sample(t0 + 10_000, 25)] }); // resent, corrected
    await service.committed();
    expect((await store.range(id, "raw", t0, t0 + MINUTE)).map((r) => [r.time - t0, r.avg.cpu])).toEqual([[0, 10], [10_000, 25]]);
    expect((await store.range(other, "raw", t0, t0 + MINUTE)).map((r) => r.avg.cpu)).toEqual([70]);
    const restarted = await make();
    expect([restarted.get(id)!.latest!.cpu.usage, restarted.get(other)!.interval]).toEqual([25, 5]);
  });

  test("samples of an agent deleted while they waited are dropped; the rest of the batch is stored", async () => {
    const { service, store, clock, userId, id } = await setup();
    const reg = await service.register((await service.createToken(userId)).token, "b", { ...host, hostname: "h2" });
    if (typeof reg === "string") throw new Error(reg);
    service.ingest(id, { host, interval: 10, samples: [sample(clock.now, 10)] });
    service.ingest(reg.agent.id, { host, interval: 10, samples: [sample(clock.now, 20)] });
    await store.remove(id); // by another node, say: this one still knows the agent
    await service.committed(); // no foreign key failure
    expect((await store.range(reg.agent.id, "raw", 0, clock.now + 1)).map((r) => r.avg.cpu)).toEqual([20]);
    expect(await store.range(id, "raw", 0, clock.now + 1)).toEqual([]);
  });

  test("names with quotes, backslashes, commas and braces come back as sent", async () => {
    const { service, store, clock, make, id } = await setup();
    const odd = 'we"b\\1, {x}';
    const s = { ...sample(clock.now, 1), disks: [{ device: odd, mountPoint: `/mnt/${odd}`, fsType: "ext4", total: 1, used: 0, free: 1, usageRate: 12.5 }] };
    service.ingest(id, { host: { ...host, hostname: odd, ips: [odd] }, interval: 10, samples: [s] }, odd);
    await service.flush();
    expect((await store.range(id, "raw", 0, clock.now + 1))[0]!.avg[`disk:/mnt/${odd}`]).toBe(12.5);
    const restarted = (await make()).get(id)!;
    expect([restarted.hostname, restarted.ips, restarted.latest!.disks[0]!.mountPoint]).toEqual([odd, [odd], `/mnt/${odd}`]);
  });
});

describe("registration", () => {
  test("two registrations racing with one token make one agent", async () => {
    const { service, userId } = await setup();
    const { token } = await service.createToken(userId);
    const results = await Promise.all(["x", "y", "z"].map((name) => service.register(token, name, { ...host, hostname: name })));
    expect(results.filter((r) => typeof r !== "string")).toHaveLength(1);
    expect(results.filter((r) => r === "used")).toHaveLength(2);
    expect(service.list()).toHaveLength(2); // the one from setup, and the winner
  });
});

test("one pass rolls up many agents, each into its own buckets", async () => {
  const { service, store, clock, userId, id } = await setup();
  const ids = [id];
  for (let i = 1; i < 5; i++) {
    const reg = await service.register((await service.createToken(userId)).token, `a${i}`, { ...host, hostname: `h${i}` });
    if (typeof reg === "string") throw new Error(reg);
    ids.push(reg.agent.id);
  }
  const t0 = clock.now;
  ids.forEach((agentId, i) => service.ingest(agentId, { host, interval: 10, samples: [sample(t0, i * 10), sample(t0 + 30_000, i * 10 + 2)] }));
  clock.now = t0 + 2 * MINUTE;
  await service.rollUpAndPrune();
  for (const [i, agentId] of ids.entries()) {
    expect((await store.range(agentId, "minute", t0, t0 + HOUR)).map((m) => [m.time, m.avg.cpu, m.max.cpu])).toEqual([[t0, i * 10 + 1, i * 10 + 2]]);
    expect((await store.range(agentId, "hour", t0, t0 + HOUR)).map((h) => h.avg.cpu)).toEqual([i * 10 + 1]);
  }
});
