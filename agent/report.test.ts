import { describe, expect, test } from "bun:test";
import type { HostInfo, Sample } from "../server/agents/protocol";
import { MAX_BODY_BYTES } from "../server/http/limits";
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
/** A sample of a host with `disks` file systems, about 150 bytes each; non-ASCII, so UTF-8 bytes ≠ string length. */
const bigSample = (time: number, disks = 16): Sample => ({
  ...sample(time),
  cpu: { usage: 1, cores: 64, model: "Xeon™ – 東京 rack 7" },
  disks: Array.from({ length: disks }, (_, i) => ({
    device: `/dev/sd${String.fromCharCode(98 + (i % 24))}1`,
    mountPoint: `/srv/données/том-${String(i).padStart(2, "0")}`,
    fsType: "xfs",
    total: 4e12,
    used: 1e12 + i,
    free: 3e12 - i,
    usageRate: 25,
  })),
});
const times = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

type Answer = number | "down" | { status: number; body: unknown };

/**
 * A fake server: `answer` sees each report (its sample times and its exact body size in bytes) and gives a status,
 * "down", or a status with a JSON body. Records what it accepted and every request's size and status.
 */
function fakeServer(answer: (report: { times: number[]; bytes: number }) => Answer) {
  const received: number[][] = [];
  const requests: { bytes: number; count: number; status: number | "down" }[] = [];
  const fetchFn = (async (_url: unknown, init?: RequestInit) => {
    const text = String(init!.body);
    const bytes = Buffer.byteLength(text, "utf8");
    const sampleTimes = (JSON.parse(text).samples as Sample[]).map((x) => x.time);
    const a = answer({ times: sampleTimes, bytes });
    requests.push({ bytes, count: sampleTimes.length, status: typeof a === "object" ? a.status : a });
    if (a === "down") throw new Error("connection refused");
    const { status, body } = typeof a === "number" ? { status: a, body: { success: a === 200 } } : a;
    if (status === 200) received.push(sampleTimes);
    return new Response(JSON.stringify(body), { status });
  }) as typeof fetch;
  return { received, requests, fetchFn };
}

const reporter = (fetchFn: typeof fetch, capacity = 10_000, log: (m: string) => void = () => {}) =>
  new Reporter({ server: "http://x", credential: "c", capacity, interval: 10, fetch: fetchFn, log });

describe("Reporter", () => {
  test("keeps samples while the server is down and sends them oldest first when it is back", async () => {
    let state: number | "down" = "down";
    const server = fakeServer(() => state);
    const r = reporter(server.fetchFn, 100);
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
    const r = reporter(server.fetchFn, 2000);
    for (let t = 0; t < 1200; t++) r.add(sample(t));
    expect(await r.flush(host)).toBe("sent");
    expect(server.received.map((b) => b.length)).toEqual([500, 500, 200]);
    expect(server.received.flat()).toEqual([...Array(1200).keys()]);
  });

  test("drops the oldest past its capacity", async () => {
    const server = fakeServer(() => 200);
    const r = reporter(server.fetchFn, 3);
    for (let t = 1; t <= 5; t++) r.add(sample(t));
    await r.flush(host);
    expect(server.received).toEqual([[3, 4, 5]]);
  });

  test("samples added while a report is on its way are kept, even when capacity drops the ones being sent", async () => {
    let r: Reporter;
    let first = true;
    const server = fakeServer(() => {
      if (first) {
        first = false;
        for (const t of [5, 6, 7]) r.add(sample(t)); // capacity 4: 1, 2, 3 leave the buffer mid-send
      }
      return 200;
    });
    r = reporter(server.fetchFn, 4);
    for (let t = 1; t <= 4; t++) r.add(sample(t));
    expect(await r.flush(host)).toBe("sent");
    expect(server.received).toEqual([[1, 2, 3, 4], [5, 6, 7]]);
    expect(r.pending).toBe(0);
  });

  test("a revoked credential is reported and nothing is dropped", async () => {
    let status = 401;
    const server = fakeServer(() => status);
    const r = reporter(server.fetchFn);
    r.add(sample(1));
    r.add(sample(2));
    expect(await r.flush(host)).toBe("revoked");
    status = 403;
    expect(await r.flush(host)).toBe("revoked");
    expect(r.pending).toBe(2);
    status = 200;
    expect(await r.flush(host)).toBe("sent");
    expect(server.received).toEqual([[1, 2]]);
  });
});

describe("a report refused as invalid (400) is bisected", () => {
  test("only the refused sample is dropped, with the server's message logged; the rest arrive in order", async () => {
    const bad = new Set([137, 138, 301]);
    const server = fakeServer(({ times }) =>
      times.some((t) => bad.has(t)) ? { status: 400, body: { success: false, code: "VALIDATION", message: "Invalid samples.0.cpu.usage" } } : 200,
    );
    const logs: string[] = [];
    const r = reporter(server.fetchFn, 10_000, (m) => logs.push(m));
    for (let t = 0; t < 400; t++) r.add(sample(t));
    expect(await r.flush(host)).toBe("dropped");
    expect(r.pending).toBe(0);
    expect(server.received.flat()).toEqual(times(0, 399).filter((t) => !bad.has(t)));
    const drops = logs.filter((l) => l.includes("dropped it"));
    expect(drops).toHaveLength(3);
    expect(drops[0]).toContain("Invalid samples.0.cpu.usage");
    expect(drops[0]).toContain(new Date(137).toISOString());
    // Bisection, not one request per sample.
    expect(server.requests.length).toBeLessThan(80);
  });

  test("a single sample refused with 400 is dropped and the next flush is clean", async () => {
    let status = 400;
    const server = fakeServer(() => status);
    const r = reporter(server.fetchFn);
    r.add(sample(1));
    expect(await r.flush(host)).toBe("dropped");
    expect(r.pending).toBe(0);
    status = 200;
    r.add(sample(2));
    expect(await r.flush(host)).toBe("sent");
    expect(server.received).toEqual([[2]]);
  });

  test("the temporary count cap is lifted after an accepted report", async () => {
    const server = fakeServer(({ times }) => (times.includes(3) ? 400 : 200));
    const r = reporter(server.fetchFn);
    for (let t = 0; t < 8; t++) r.add(sample(t));
    expect(await r.flush(host)).toBe("dropped");
    for (let t = 8; t < 100; t++) r.add(sample(t));
    expect(await r.flush(host)).toBe("sent");
    expect(server.received.at(-1)).toEqual(times(8, 99)); // one report again, not capped
  });

  test("a failure mid-bisection keeps everything not yet accepted or refused", async () => {
    let calls = 0;
    // The third request (mid-bisection) finds the server gone.
    const server = fakeServer(({ times }) => (++calls === 3 ? "down" : times.includes(5) ? 400 : 200));
    const r = reporter(server.fetchFn);
    for (let t = 0; t < 20; t++) r.add(sample(t));
    expect(await r.flush(host)).toBe("retry");
    expect(r.pending).toBe(20);
    expect(await r.flush(host)).toBe("dropped");
    expect(server.received.flat()).toEqual(times(0, 19).filter((t) => t !== 5));
  });
});

describe("reports are sized in bytes", () => {
  test("a 413 splits the report and loses nothing (a proxy's limit, no maxBytes stated)", async () => {
    const limit = 40_000;
    const server = fakeServer(({ bytes }) => (bytes > limit ? { status: 413, body: "<html>413 Request Entity Too Large</html>" } : 200));
    const r = reporter(server.fetchFn);
    for (let t = 0; t < 300; t++) r.add(bigSample(t)); // ≈ 2.6 KB each, ≈ 780 KB in all
    expect(await r.flush(host)).toBe("sent");
    expect(server.received.flat()).toEqual(times(0, 299));
    const refused = server.requests.filter((q) => q.status === 413);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(5); // halving from 1 MiB to under 40 kB, once
    expect(r.maxBodyBytes).toBeLessThanOrEqual(limit);
    // Once learned, the smaller budget stays: more samples go without another 413.
    for (let t = 300; t < 400; t++) r.add(bigSample(t));
    const before = server.requests.length;
    expect(await r.flush(host)).toBe("sent");
    expect(server.requests.slice(before).every((q) => q.status === 200)).toBe(true);
    expect(server.received.flat()).toEqual(times(0, 399));
  });

  test("a maxBytes stated in a 413 is honoured: one 413, then every report fits it", async () => {
    const maxBytes = 50_000;
    const server = fakeServer(({ bytes }) =>
      bytes > maxBytes ? { status: 413, body: { success: false, code: "BODY_TOO_LARGE", message: "too large", maxBytes } } : 200,
    );
    const r = reporter(server.fetchFn);
    for (let t = 0; t < 1000; t++) r.add(bigSample(t));
    expect(await r.flush(host)).toBe("sent");
    expect(server.requests.filter((q) => q.status === 413)).toHaveLength(1);
    expect(server.requests[0].status).toBe(413);
    expect(r.maxBodyBytes).toBe(maxBytes);
    const accepted = server.requests.slice(1);
    expect(accepted.every((q) => q.bytes <= maxBytes)).toBe(true);
    // Reports are filled: each but the last would not have had room for one more sample (≈ 2.6 KB).
    expect(accepted.slice(0, -1).every((q) => q.bytes > maxBytes - 3000)).toBe(true);
    expect(server.received.flat()).toEqual(times(0, 999));
  });

  test("a maxBytes stated in an accepted reply is honoured before any 413", async () => {
    const maxBytes = 30_000;
    const server = fakeServer(({ bytes }) => (bytes > maxBytes ? 413 : { status: 200, body: { success: true, accepted: 1, maxBytes } }));
    const r = reporter(server.fetchFn);
    r.add(bigSample(0));
    expect(await r.flush(host)).toBe("sent");
    for (let t = 1; t < 200; t++) r.add(bigSample(t));
    expect(await r.flush(host)).toBe("sent");
    expect(server.requests.every((q) => q.status === 200 && q.bytes <= maxBytes)).toBe(true);
    expect(server.received.flat()).toEqual(times(0, 199));
  });

  test("the body never exceeds the budget, counted in UTF-8 bytes", async () => {
    const server = fakeServer(() => 200);
    const r = reporter(server.fetchFn);
    // ≈ 1.3 MiB of 9.4 KB samples with multi-byte characters: a string-length count would overshoot the limit.
    for (let t = 0; t < 140; t++) r.add(bigSample(t, 64));
    expect(await r.flush(host)).toBe("sent");
    expect(server.requests.length).toBe(2);
    expect(server.requests[0].bytes).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(server.requests[0].bytes).toBeGreaterThan(MAX_BODY_BYTES - 10_000);
    expect(server.received.flat()).toEqual(times(0, 139));
  });

  test("absurd maxBytes values are ignored", async () => {
    for (const maxBytes of [100, 0, -5, 1.5e5 + 0.5, "65536", null, 2 ** 60]) {
      const server = fakeServer(() => ({ status: 200, body: { success: true, accepted: 1, maxBytes } }));
      const r = reporter(server.fetchFn);
      r.add(sample(1));
      await r.flush(host);
      expect(r.maxBodyBytes).toBe(MAX_BODY_BYTES);
    }
  });

  test("a sample too large on its own is dropped with a log line; the others arrive", async () => {
    const limit = 20_000;
    const server = fakeServer(({ bytes }) => (bytes > limit ? { status: 413, body: { success: false, code: "BODY_TOO_LARGE", message: "too large", maxBytes: limit } } : 200));
    const logs: string[] = [];
    const r = reporter(server.fetchFn, 100, (m) => logs.push(m));
    r.add(bigSample(1));
    r.add(bigSample(2, 64)); // ≈ 9.4 KB … still fits
    r.add(bigSample(3, 150)); // ≈ 22 KB: can never be accepted
    r.add(bigSample(4));
    expect(await r.flush(host)).toBe("dropped");
    expect(server.received.flat()).toEqual([1, 2, 4]);
    expect(logs.some((l) => l.includes("too large; dropped it"))).toBe(true);
    expect(r.pending).toBe(0);
  });
});

describe("Reporter.lastProbesVersion", () => {
  test("is the probes version of the last accepted reply; refused replies and older servers leave it", async () => {
    let answer: Answer = { status: 200, body: { success: true, accepted: 1 } };
    const r = reporter(fakeServer(() => answer).fetchFn);
    r.add(sample(1));
    expect(await r.flush(host)).toBe("sent");
    expect(r.lastProbesVersion).toBeUndefined(); // an older server says nothing
    answer = { status: 200, body: { success: true, accepted: 1, probes: "v1" } };
    r.add(sample(2));
    expect(await r.flush(host)).toBe("sent");
    expect(r.lastProbesVersion).toBe("v1");
    answer = { status: 503, body: { success: false, probes: "v2" } };
    r.add(sample(3));
    expect(await r.flush(host)).toBe("retry");
    expect(r.lastProbesVersion).toBe("v1");
    answer = { status: 200, body: { success: true, accepted: 1, probes: "" } };
    expect(await r.flush(host)).toBe("sent");
    expect(r.lastProbesVersion).toBe("");
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
