import { describe, expect, test } from "bun:test";
import type { HostInfo, Sample } from "../server/agents/protocol";
import { Reporter, backoff } from "./report";

const host: HostInfo = { hostname: "h", ips: [], os: "Linux", kernel: "6", arch: "x64", uptime: 1, agentVersion: "t" };
const sample = (time: number): Sample => ({
  time,
  cpu: { usage: 1, cores: 1, model: "m" },
  memory: { total: 1, used: 0, free: 1, usageRate: 0 },
  disks: [],
  network: [],
  load: { one: 0, five: 0, fifteen: 0 },
});

/** A fake server: answers with `status()` and records the sample times it accepted. */
function fakeServer(status: () => number | "down") {
  const received: number[][] = [];
  const fetchFn = (async (_url: unknown, init?: RequestInit) => {
    const s = status();
    if (s === "down") throw new Error("connection refused");
    if (s === 200) received.push((JSON.parse(String(init!.body)).samples as Sample[]).map((x) => x.time));
    return new Response(JSON.stringify({ success: s === 200 }), { status: s });
  }) as typeof fetch;
  return { received, fetchFn };
}

describe("Reporter", () => {
  test("keeps samples while the server is down and sends them oldest first when it is back", async () => {
    let state: number | "down" = "down";
    const server = fakeServer(() => state);
    const r = new Reporter({ server: "http://x", credential: "c", capacity: 100, interval: 10, fetch: server.fetchFn, log: () => {} });
    for (let t = 1; t <= 3; t++) {
      r.add(sample(t));
      expect(await r.flush(host)).toBe("retry");
    }
    expect(r.pending).toBe(3);
    state = 503;
    r.add(sample(4));
    expect(await r.flush(host)).toBe("retry");
    state = 200;
    r.add(sample(5));
    expect(await r.flush(host)).toBe("sent");
    expect(server.received).toEqual([[1, 2, 3, 4, 5]]);
    expect(r.pending).toBe(0);
  });

  test("sends a long backlog in reports of at most 500", async () => {
    const server = fakeServer(() => 200);
    const r = new Reporter({ server: "http://x", credential: "c", capacity: 2000, interval: 10, fetch: server.fetchFn, log: () => {} });
    for (let t = 0; t < 1200; t++) r.add(sample(t));
    expect(await r.flush(host)).toBe("sent");
    expect(server.received.map((b) => b.length)).toEqual([500, 500, 200]);
    expect(server.received.flat()).toEqual([...Array(1200).keys()]);
  });

  test("drops the oldest past its capacity", async () => {
    const server = fakeServer(() => 200);
    const r = new Reporter({ server: "http://x", credential: "c", capacity: 3, interval: 10, fetch: server.fetchFn, log: () => {} });
    for (let t = 1; t <= 5; t++) r.add(sample(t));
    await r.flush(host);
    expect(server.received).toEqual([[3, 4, 5]]);
  });

  test("a batch the server rejects as invalid is dropped, a revoked credential is reported", async () => {
    let status = 400;
    const server = fakeServer(() => status);
    const r = new Reporter({ server: "http://x", credential: "c", capacity: 10, interval: 10, fetch: server.fetchFn, log: () => {} });
    r.add(sample(1));
    expect(await r.flush(host)).toBe("rejected");
    expect(r.pending).toBe(0);
    status = 401;
    r.add(sample(2));
    expect(await r.flush(host)).toBe("revoked");
    expect(r.pending).toBe(1);
  });
});

describe("backoff", () => {
  test("doubles up to the cap, with jitter in [half, full]", () => {
    expect(backoff(0, 60_000, () => 0)).toBe(500);
    expect(backoff(0, 60_000, () => 1)).toBe(1000);
    expect(backoff(3, 60_000, () => 1)).toBe(8000);
    expect(backoff(30, 60_000, () => 1)).toBe(60_000);
  });
});
