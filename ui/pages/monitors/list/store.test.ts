import { describe, expect, test } from "bun:test";
import type { MonitorCheckEvent, PublicMonitor } from "../../../api/monitors";
import { HOUR_MS } from "../listModel";
import { publicMonitor } from "../testing";
import { createListStore } from "./store";

const HOUR = 480_000;
const T0 = HOUR * HOUR_MS + 10 * 60_000; // 10 minutes into hour HOUR

const monitor = (over: Partial<PublicMonitor> = {}): PublicMonitor =>
  publicMonitor({
    target: "https://example.com/",
    url: "https://example.com/",
    status: "up",
    lastCheckedAt: T0 - 60_000,
    responseTime: 10,
    httpStatus: 200,
    uptime24h: 100,
    heartbeat: [...Array.from({ length: 23 }, () => [0, 0] as [number, number]), [3, 3]],
    ...over,
  });

function checkEvent(id: number, time: number, up: boolean, over: Partial<MonitorCheckEvent> = {}): MonitorCheckEvent {
  return {
    monitorId: id,
    result: { monitorId: id, time, status: up ? "up" : "down", responseTime: up ? 20 : null, httpStatus: up ? 200 : 500, error: up ? null : "status 500, expected 2xx", maintenance: false },
    status: up ? "up" : "down",
    consecutiveFailures: up ? 0 : 1,
    uptime24h: up ? 100 : 75,
    lastPushAt: null,
    ...over,
  };
}

/** A store on a clock the test sets. */
function setup() {
  let now = T0;
  const store = createListStore({ now: () => now });
  return { store, setNow: (t: number) => (now = t) };
}

describe("list store", () => {
  test("a check wakes its own row only", () => {
    const { store } = setup();
    store.setRows([monitor({ id: 1 }), monitor({ id: 2, name: "Other" })], true);
    const woken: number[] = [];
    store.subscribeRow(1, () => woken.push(1));
    store.subscribeRow(2, () => woken.push(2));
    const other = store.get(2);
    store.apply({ type: "monitor.check", data: checkEvent(1, T0, true) });
    expect(woken).toEqual([1]);
    expect(store.get(1)!.monitor.responseTime).toBe(20);
    expect(store.get(2)).toBe(other);
    store.apply({ type: "monitor.check", data: checkEvent(1, T0 + 60_000, false) });
    expect(woken).toEqual([1, 1]);
    expect(store.get(1)!.monitor.status).toBe("down");
  });

  test("the heartbeat's current hour is bumped by a check, once even if reported twice", () => {
    const { store } = setup();
    store.setRows([monitor()], true);
    store.apply({ type: "monitor.check", data: checkEvent(1, T0, false) });
    expect(store.get(1)!.heartbeat[23]).toEqual([4, 3]);
    store.apply({ type: "monitor.check", data: checkEvent(1, T0, false) });
    expect(store.get(1)!.heartbeat[23]).toEqual([4, 3]);
  });

  test("a manual check's reply and its push count once, in either order", () => {
    const { store } = setup();
    store.setRows([monitor()], true);
    // Reply first (the server's strip counts the check), then the push of the same check.
    store.upsert(monitor({ lastCheckedAt: T0, heartbeat: [...Array.from({ length: 23 }, () => [0, 0] as [number, number]), [4, 4]] }));
    store.apply({ type: "monitor.check", data: checkEvent(1, T0, true) });
    expect(store.get(1)!.heartbeat[23]).toEqual([4, 4]);
    // Push first, then the reply.
    store.apply({ type: "monitor.check", data: checkEvent(1, T0 + 1000, true) });
    expect(store.get(1)!.heartbeat[23]).toEqual([5, 5]);
    store.upsert(monitor({ lastCheckedAt: T0 + 1000, heartbeat: [...Array.from({ length: 23 }, () => [0, 0] as [number, number]), [5, 5]] }));
    expect(store.get(1)!.heartbeat[23]).toEqual([5, 5]);
  });

  test("a check in a new hour rolls the strip", () => {
    const { store, setNow } = setup();
    store.setRows([monitor()], true);
    setNow(T0 + HOUR_MS);
    store.apply({ type: "monitor.check", data: checkEvent(1, T0 + HOUR_MS, true) });
    const entry = store.get(1)!;
    expect(entry.hour).toBe(HOUR + 1);
    expect(entry.heartbeat.slice(-2)).toEqual([[3, 3], [1, 1]]);
  });

  test("created, updated, paused and deleted monitors; a status push", () => {
    const { store } = setup();
    store.setRows([monitor()], true);
    store.apply({ type: "monitor.change", data: { action: "created", monitorId: 5, monitor: monitor({ id: 5, name: "New" }) } });
    expect(store.has(5)).toBe(true);
    store.apply({ type: "monitor.change", data: { action: "updated", monitorId: 5, monitor: monitor({ id: 5, name: "Renamed", active: false }) } });
    expect(store.get(5)!.monitor.name).toBe("Renamed");
    store.apply({ type: "monitor.status", data: { monitorId: 1, name: "API", type: "http", url: "", from: "up", to: "down", at: T0 } });
    expect(store.get(1)!.monitor.status).toBe("down");
    store.apply({ type: "monitor.change", data: { action: "deleted", monitorId: 5 } });
    expect(store.get(5)).toBeUndefined();
    // Unknown ids (rows not held) are ignored.
    store.apply({ type: "monitor.check", data: checkEvent(42, T0, true) });
    expect(store.size).toBe(1);
  });

  test("setRows holds the rows of a reply: others are forgotten; a live check newer than the reply wins", () => {
    const { store } = setup();
    store.setRows([monitor({ id: 1 }), monitor({ id: 2 })], true);
    store.apply({ type: "monitor.check", data: checkEvent(1, T0 + 5000, false) }); // after the reply below was read
    store.setRows([monitor({ id: 1 }), monitor({ id: 3 })], false);
    expect(store.get(2)).toBeUndefined();
    expect(store.get(1)!.monitor.status).toBe("down");
    expect(store.get(3)!.monitor.status).toBe("up");
    store.setRows([monitor({ id: 1, lastCheckedAt: T0 + 6000, name: "Renamed" })], false); // newer than the check
    expect(store.get(1)!.monitor.name).toBe("Renamed");
    expect(store.size).toBe(1);
  });
});

describe("a row's latest checks", () => {
  const recent = (time: number, up = true) => checkEvent(1, time, up).result;

  test("fetched once for the rows in view; a check arriving during the fetch is added to its answer, once", () => {
    const { store } = setup();
    store.setRows([monitor({ id: 1 }), monitor({ id: 2, name: "Other" })], true);
    expect(store.get(1)!.checks).toBeNull();
    expect(store.claimChecks([1, 2, 99])).toEqual([1, 2]);
    expect(store.claimChecks([1, 2])).toEqual([]); // already being fetched: not asked twice
    const woken: number[] = [];
    store.subscribeRow(1, () => woken.push(1));

    store.apply({ type: "monitor.check", data: checkEvent(1, T0 + 2000, false) }); // live, before the answer came
    store.setChecks([1, 2], { 1: [recent(T0), recent(T0 + 1000)] }); // read before that check; 2 has none yet
    expect(store.get(1)!.checks!.map((c) => [c.time, c.status])).toEqual([
      [T0, "up"],
      [T0 + 1000, "up"],
      [T0 + 2000, "down"],
    ]);
    expect(store.get(2)!.checks).toEqual([]);
    expect(woken.length).toBeGreaterThan(0);
    expect(store.claimChecks([1, 2])).toEqual([]); // loaded

    // From then on live checks append (the same check twice, as a reply and a push, counts once), 50 at most.
    store.apply({ type: "monitor.check", data: checkEvent(1, T0 + 3000, true) });
    store.apply({ type: "monitor.check", data: checkEvent(1, T0 + 3000, true) });
    expect(store.get(1)!.checks).toHaveLength(4);
    for (let i = 0; i < 60; i++) store.apply({ type: "monitor.check", data: checkEvent(1, T0 + 10_000 + i, true) });
    expect(store.get(1)!.checks).toHaveLength(50);
    expect(store.get(1)!.checks!.at(-1)!.time).toBe(T0 + 10_059);
    // An edit and a refresh keep the strip; a fresh list (after a reconnect) fetches it again.
    store.upsert(monitor({ id: 1, name: "Renamed" }));
    expect(store.get(1)!.checks).toHaveLength(50);
    store.setRows([monitor({ id: 1, lastCheckedAt: T0 + 20_000 })], false);
    expect(store.get(1)!.checks).toHaveLength(50);
    store.setRows([monitor({ id: 1 })], true);
    expect(store.get(1)!.checks).toBeNull();
  });

  test("an answer that comes after a reload or a failed fetch is not applied; the rows may ask again", () => {
    const { store } = setup();
    store.setRows([monitor({ id: 1 })], true);
    expect(store.claimChecks([1])).toEqual([1]);
    store.setRows([monitor({ id: 1 })], true); // reconnected while the fetch was out
    store.setChecks([1], { 1: [recent(T0)] });
    expect(store.get(1)!.checks).toBeNull();
    expect(store.claimChecks([1])).toEqual([1]);
    store.releaseChecks([1]);
    expect(store.claimChecks([1])).toEqual([1]);
  });
});
