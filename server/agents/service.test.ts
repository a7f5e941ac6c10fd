import { describe, expect, test } from "bun:test";
import { openDatabase } from "../db/open";
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

/** A service over an in-memory database with a clock the test moves. */
function setup(start = Date.UTC(2026, 0, 1, 12, 0, 0)) {
  const db = openDatabase(":memory:");
  db.$client.run("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('u', 'h', 0, 0)");
  const clock = { now: start };
  const events: AgentStatusEvent[] = [];
  const store = createAgentStore(db);
  const make = () =>
    new AgentService({
      store,
      transaction: (fn) => db.transaction(() => fn()),
      log: silentLogger,
      now: () => clock.now,
      onStatus: (e) => events.push(e),
    });
  const service = make();
  const { token } = service.createToken(1);
  const reg = service.register(token, "a", host);
  if (typeof reg === "string") throw new Error(reg);
  return { db, store, clock, events, service, make, id: reg.agent.id };
}

describe("presence", () => {
  test("connecting → online on the first report → offline after 3 missed intervals", () => {
    const { service, clock, events, id } = setup();
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

  test("a restart remembers agents, their newest sample and whether they are still fresh", () => {
    const { service, make, clock, id } = setup();
    service.ingest(id, { host, interval: 10, samples: [sample(clock.now, 42)] });
    service.flush();
    clock.now += 5_000;
    const restarted = make();
    expect(restarted.get(id)).toMatchObject({ status: "online", latest: { cpu: { usage: 42 } } });
    clock.now += 60_000;
    expect(make().get(id)!.status).toBe("offline");
  });
});

describe("rollups and retention", () => {
  test("closed minutes and hours get avg and max; re-running changes nothing", async () => {
    const { service, store, clock, id } = setup();
    const t0 = clock.now; // 12:00:00
    service.ingest(id, { host, interval: 10, samples: [10, 20, 30, 40, 50, 60].map((cpu, i) => sample(t0 + i * 10_000, cpu)) });
    service.ingest(id, { host, interval: 10, samples: [sample(t0 + MINUTE, 100)] });
    clock.now = t0 + 2 * MINUTE;
    await service.rollUpAndPrune();
    const minutes = store.range(id, "minute", t0, t0 + HOUR);
    expect(minutes.map((m) => [m.time - t0, m.avg.cpu, m.max.cpu])).toEqual([[0, 35, 60], [MINUTE, 100, 100]]);
    const hours = store.range(id, "hour", t0, t0 + HOUR);
    expect(hours.map((h) => [h.avg.cpu, h.max.cpu])).toEqual([[67.5, 100]]);
    await service.rollUpAndPrune();
    expect(store.range(id, "minute", t0, t0 + HOUR)).toEqual(minutes);
    expect(store.range(id, "hour", t0, t0 + HOUR)).toEqual(hours);
  });

  test("a backlog sent after an outage is rolled into its own (old) minutes", async () => {
    const { service, store, clock, id } = setup();
    const t0 = clock.now;
    clock.now = t0 + 2 * HOUR;
    await service.rollUpAndPrune(); // nothing yet
    const backlog = Array.from({ length: 12 }, (_, i) => sample(t0 + i * 10_000, i < 6 ? 10 : 20));
    service.ingest(id, { host, interval: 10, samples: backlog });
    clock.now += MINUTE;
    await service.rollUpAndPrune();
    expect(store.range(id, "minute", t0, t0 + HOUR).map((m) => m.avg.cpu)).toEqual([10, 20]);
    expect(store.range(id, "hour", t0, t0 + HOUR).map((h) => h.avg.cpu)).toEqual([15]);
  });

  test("a restart catches up on minutes it did not roll up", async () => {
    const { service, make, store, clock, id } = setup();
    const t0 = clock.now;
    service.ingest(id, { host, interval: 10, samples: [sample(t0, 10), sample(t0 + MINUTE, 30)] });
    service.flush(); // written, never rolled up: the process "crashes" here
    clock.now = t0 + 10 * MINUTE;
    await make().rollUpAndPrune();
    expect(store.range(id, "minute", t0, t0 + HOUR).map((m) => m.avg.cpu)).toEqual([10, 30]);
  });

  test("raw samples go after 24 h, minutes after 30 d", async () => {
    const { service, store, clock, id } = setup();
    const t0 = clock.now;
    service.ingest(id, { host, interval: 10, samples: [sample(t0, 10)] });
    clock.now = t0 + 2 * MINUTE;
    await service.rollUpAndPrune();
    clock.now = t0 + DAY + MINUTE;
    await service.rollUpAndPrune();
    expect(store.range(id, "raw", 0, clock.now)).toEqual([]);
    expect(store.range(id, "minute", 0, clock.now)).toHaveLength(1);
    clock.now = t0 + 31 * DAY;
    await service.rollUpAndPrune();
    expect(store.range(id, "minute", 0, clock.now)).toEqual([]);
    expect(store.range(id, "hour", 0, clock.now)).toHaveLength(1);
  });
});
