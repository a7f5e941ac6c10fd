// The agent's checks from assignments: a tiny local server stands in for POST /api/agents/probes, another for the
// monitored target. Checks are triggered with runNow (or a first delay of 0), so nothing waits for minutes.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProbeAssignments, ProbeResult } from "../server/probes/protocol";
import { systemPinger } from "../server/monitors/types/ping/pinger";
import { MAX_PROBE_RESULTS } from "../server/probes/limits";
import { MAX_PROBE_ERROR, ProbeRunner, toResult, type ProbeRunnerOptions } from "./probes";

// The monitored target: /ok answers 200; every hit is counted by path.
const hits = new Map<string, number>();
const target = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const path = new URL(req.url).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === "/slow") return Bun.sleep(200).then(() => new Response("late"));
    return new Response(path === "/ok" ? "ok" : "no", { status: path === "/ok" ? 200 : 500 });
  },
});
const targetUrl = (path: string) => `http://127.0.0.1:${target.port}${path}`;

// The Vigil server's side: answers like server/probes/routes.ts, remembering everything it stored.
const hub = {
  credential: "good",
  assignments: { version: "", policy: { allowPrivate: true }, monitors: [] } as ProbeAssignments,
  /** Answer with this status instead (503, 401…). */
  status: 200,
  /** Results of these monitors make the whole call a 400 (a result the server refuses). */
  refuse: new Set<number>(),
  /** Results of these monitors are refused one by one, NOT_ASSIGNED (listed in the reply, not stored). */
  notAssigned: new Set<number>(),
  stored: [] as ProbeResult[],
  calls: [] as { version: string; count: number }[],
  reset() {
    this.assignments = { version: "", policy: { allowPrivate: true }, monitors: [] };
    this.status = 200;
    this.refuse.clear();
    this.notAssigned.clear();
    this.stored = [];
    this.calls = [];
  },
};
const probeServer = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    if (new URL(req.url).pathname !== "/api/agents/probes" || req.method !== "POST") return new Response("not found", { status: 404 });
    if (req.headers.get("authorization") !== `Bearer ${hub.credential}`) return Response.json({ success: false, code: "AGENT_UNKNOWN" }, { status: 401 });
    const body = (await req.json()) as { version: string; results: ProbeResult[] };
    hub.calls.push({ version: body.version, count: body.results.length });
    if (hub.status !== 200) return Response.json({ success: false }, { status: hub.status });
    if (body.results.length > MAX_PROBE_RESULTS || body.results.some((r) => hub.refuse.has(r.monitorId))) {
      return Response.json({ success: false, code: "VALIDATION", message: "Invalid result" }, { status: 400 });
    }
    const taken = body.results.filter((r) => !hub.notAssigned.has(r.monitorId));
    const refused = body.results
      .filter((r) => hub.notAssigned.has(r.monitorId))
      .map((r) => ({ monitorId: r.monitorId, time: r.time, reason: "NOT_ASSIGNED", message: "This monitor is not assigned to this agent" }));
    // De-duplicated by (monitor, agent, time), like the server's table.
    for (const r of taken) if (!hub.stored.some((s) => s.monitorId === r.monitorId && s.time === r.time)) hub.stored.push(r);
    const changed = body.version !== hub.assignments.version;
    return Response.json({ success: true, accepted: taken.length, refused, ...(changed ? { assignments: hub.assignments } : {}) });
  },
});
const SERVER = `http://127.0.0.1:${probeServer.port}`;

// A port nothing listens on: the server "down".
const closedPort = await new Promise<number>((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});
const DOWN = `http://127.0.0.1:${closedPort}`;

const dirs: string[] = [];
const runners: ProbeRunner[] = [];
afterEach(() => {
  for (const r of runners.splice(0)) r.stop();
  hub.reset();
  hits.clear();
});
afterAll(() => {
  target.stop(true);
  probeServer.stop(true);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "vigil-probes-"));
  dirs.push(d);
  return d;
};

/** A runner whose checks run only when the test says so (first check a minute away), logging into `logs`. */
function runner(options: ProbeRunnerOptions = {}) {
  const logs: string[] = [];
  const r = new ProbeRunner({ firstDelay: () => 60_000, log: (m) => logs.push(m), ...options });
  runners.push(r);
  return Object.assign(r, { logs });
}

const http = (id: number, path = "/ok", interval = 1) => ({ id, interval, fields: { type: "http", url: targetUrl(path) } });
const assign = (version: string, monitors: ReturnType<typeof http>[], allowPrivate = true): ProbeAssignments => ({ version, policy: { allowPrivate }, monitors });

/** Runs checks one after the other, a few ms apart (results are identified by monitor and start time to the ms). */
async function runChecks(r: ProbeRunner, ids: number[]) {
  for (const id of ids) {
    await r.runNow(id);
    await Bun.sleep(2);
  }
}

async function until(condition: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await Bun.sleep(5);
  }
}

describe("ProbeRunner", () => {
  test("learns its assignments from the server, runs them, sends the results and forgets them once accepted", async () => {
    hub.assignments = assign("v1", [http(7)]);
    const r = runner({ firstDelay: () => 0 });
    expect(r.version).toBe("");
    expect(await r.sync(SERVER, "good")).toBe("sent"); // nothing to send yet: the call brings the assignments
    expect(hub.calls).toEqual([{ version: "", count: 0 }]);
    expect(r.version).toBe("v1");
    expect(r.monitorIds).toEqual([7]);
    await until(() => r.pending === 1); // the first check, soon after the assignment
    expect(await r.sync(SERVER, "good")).toBe("sent");
    expect(hub.calls.at(-1)).toEqual({ version: "v1", count: 1 });
    expect(hub.stored).toHaveLength(1);
    expect(hub.stored[0]).toMatchObject({ monitorId: 7, up: true, httpStatus: 200, error: null });
    expect(Number.isInteger(hub.stored[0].responseTime)).toBe(true);
    expect(r.pending).toBe(0);
    expect(hits.get("/ok")).toBe(1);
  });

  test("keeps results while the server is down and sends them once when it is back", async () => {
    const r = runner();
    r.apply(assign("v1", [http(1), http(2, "/fail")]));
    await runChecks(r, [1, 2]);
    expect(await r.sync(DOWN, "good")).toBe("retry");
    hub.status = 503;
    expect(await r.sync(SERVER, "good")).toBe("retry");
    expect(r.pending).toBe(2);
    await r.runNow(1);
    hub.status = 200;
    expect(await r.sync(SERVER, "good")).toBe("sent");
    expect(await r.sync(SERVER, "good")).toBe("sent");
    expect(hub.stored.map((s) => s.monitorId).sort()).toEqual([1, 1, 2]);
    expect(hub.calls.map((c) => c.count)).toEqual([2, 3, 0]); // the 503, everything once, then nothing again
    expect(hub.stored.find((s) => s.monitorId === 2)).toMatchObject({ up: false, httpStatus: 500 });
  });

  test("unsent results survive the agent being killed: saved to the state file, reloaded by the next run", async () => {
    const statePath = join(tempDir(), "probe-results.json");
    const first = runner({ statePath, persistEveryMs: 10 });
    first.apply(assign("v1", [http(3)]));
    await runChecks(first, [3, 3]);
    // No stop(): killed. The buffer was written soon after the change.
    await until(() => existsSync(statePath) && JSON.parse(readFileSync(statePath, "utf8")).results.length === 2);
    expect(existsSync(`${join(statePath, "..")}/.probe-results.json.tmp`)).toBe(false); // renamed into place

    const second = runner({ statePath, persistEveryMs: 10 });
    expect(second.pending).toBe(2);
    expect(second.logs.some((l) => l.includes("2 unsent check result(s)"))).toBe(true);
    hub.assignments = assign("v1", [http(3)]);
    const saved = readFileSync(statePath, "utf8");
    expect(await second.sync(SERVER, "good")).toBe("sent");
    expect(hub.stored).toHaveLength(2);
    await until(() => JSON.parse(readFileSync(statePath, "utf8")).results.length === 0);

    // Killed after the server took them but before the file said so: the next run sends the same results again
    // (same monitor and time), which the server stores once.
    writeFileSync(statePath, saved);
    const third = runner({ statePath });
    expect(await third.sync(SERVER, "good")).toBe("sent");
    expect(hub.calls.at(-1)!.count).toBe(2);
    expect(hub.stored).toHaveLength(2);
  });

  test("the assignments outlive a restart: the next run checks them before it reaches the server", async () => {
    const statePath = join(tempDir(), "probe-results.json");
    const first = runner({ statePath, persistEveryMs: 10 });
    first.apply(assign("v1", [http(3), http(6)]));
    first.stop();
    expect(JSON.parse(readFileSync(statePath, "utf8")).assignments).toMatchObject({ version: "v1", monitors: [{ id: 3 }, { id: 6 }] });

    // The server is out of reach, and still the checks run and wait for it.
    const second = runner({ statePath, persistEveryMs: 10 });
    expect(second.version).toBe("v1");
    expect(second.monitorIds).toEqual([3, 6]);
    await runChecks(second, [3]);
    expect(await second.sync(DOWN, "good")).toBe("retry");
    expect(second.pending).toBe(1);
    // The server's word wins once it answers: nothing assigned any more.
    hub.assignments = assign("v2", []);
    expect(await second.sync(SERVER, "good")).toBe("sent");
    expect(second.monitorIds).toEqual([]);
    second.stop();
    expect(JSON.parse(readFileSync(statePath, "utf8")).assignments).toMatchObject({ version: "v2", monitors: [] });
  });

  test("stop() writes the buffer at once; a damaged state file is reported and the runner starts empty", async () => {
    const dir = tempDir();
    const statePath = join(dir, "probe-results.json");
    const r = runner({ statePath, persistEveryMs: 60_000 });
    r.apply(assign("v1", [http(4)]));
    await r.runNow(4);
    r.stop();
    expect(JSON.parse(readFileSync(statePath, "utf8")).results).toHaveLength(1);

    const damaged = join(dir, "damaged.json");
    writeFileSync(damaged, "{ not json");
    const fresh = runner({ statePath: damaged });
    expect(fresh.pending).toBe(0);
    expect(fresh.logs.some((l) => l.includes("cannot read unsent check results"))).toBe(true);
  });

  test("a state file that cannot be written is said once; the results stay in memory", async () => {
    const statePath = join(tempDir(), "missing-dir", "probe-results.json");
    const r = runner({ statePath, persistEveryMs: 5 });
    r.apply(assign("v1", [http(4)]));
    await runChecks(r, [4, 4, 4]);
    await Bun.sleep(30);
    r.stop();
    expect(r.logs.filter((l) => l.includes("cannot save unsent check results")).length).toBe(1);
    expect(r.pending).toBe(3);
  });

  test("a monitor no longer assigned stops; one whose fields changed restarts; an unchanged one keeps its loop", async () => {
    const r = runner({ firstDelay: () => 0 });
    r.apply(assign("v1", [http(1, "/ok"), http(2, "/ok2")]));
    await until(() => (hits.get("/ok") ?? 0) === 1 && (hits.get("/ok2") ?? 0) === 1);
    r.apply(assign("v2", [http(1, "/ok")]));
    expect(r.version).toBe("v2");
    expect(r.monitorIds).toEqual([1]);
    expect(await r.runNow(2)).toBe(false);
    await Bun.sleep(50);
    expect(hits.get("/ok")).toBe(1); // unchanged: not restarted, so no new first check
    r.apply(assign("v3", [http(1, "/ok3")]));
    await until(() => (hits.get("/ok3") ?? 0) === 1);
    r.apply(assign("v4", []));
    expect(r.monitorIds).toEqual([]);
  });

  test("a check cut short by its monitor being unassigned records nothing", async () => {
    const r = runner();
    r.apply(assign("v1", [http(8, "/slow")]));
    const running = r.runNow(8);
    await until(() => hits.get("/slow") === 1);
    r.apply(assign("v2", []));
    await running;
    expect(r.pending).toBe(0);
  });

  test("push monitors are never run; fields the server left out get their defaults", async () => {
    const r = runner();
    r.apply({ version: "v1", policy: { allowPrivate: true }, monitors: [{ id: 1, interval: 5, fields: { type: "push" } }, { id: 2, interval: 5, fields: { url: targetUrl("/ok") } }] });
    expect(r.monitorIds).toEqual([2]);
    await r.runNow(2); // type, method, timeout, expected status… from defaultFields()
    expect(r.pending).toBe(1);
  });

  test.skipIf(!systemPinger())("ping and TCP monitors run here with the server's modules: 127.0.0.1 answers, the round trips recorded", async () => {
    const r = runner();
    r.apply({
      version: "v1",
      policy: { allowPrivate: true },
      monitors: [
        { id: 7, interval: 1, fields: { type: "ping", host: "127.0.0.1", pingCount: 2, timeout: 5 } },
        { id: 8, interval: 1, fields: { type: "tcp", host: "127.0.0.1", port: probeServer.port, timeout: 5 } },
      ],
    });
    await runChecks(r, [7, 8]);
    expect(await r.sync(SERVER, "good")).toBe("sent");
    const ping = hub.stored.find((x) => x.monitorId === 7)!;
    expect(ping).toMatchObject({ up: true, error: null, ping: { sent: 2, received: 2, loss: 0 } });
    expect(hub.stored.find((x) => x.monitorId === 8)).toMatchObject({ up: true, error: null });
  });

  test("the address policy is enforced here too: with private targets refused, 127.0.0.1 is not contacted", async () => {
    const r = runner();
    r.apply(assign("v1", [http(5)], false));
    await r.runNow(5);
    expect(await r.sync(SERVER, "good")).toBe("sent");
    expect(hub.stored[0]).toMatchObject({ monitorId: 5, up: false, responseTime: null, httpStatus: null });
    expect(hub.stored[0].error).toStartWith("Target refused: ");
    expect(hits.size).toBe(0);
  });

  test("a tcp host written as loopback in another spelling (127.1, 2130706433, 0x7f.1) is refused too, nothing connects", async () => {
    let accepted = 0;
    const listener = createServer((s) => (accepted++, s.destroy()));
    await new Promise<void>((done) => listener.listen(0, "127.0.0.1", done));
    const port = (listener.address() as { port: number }).port;
    try {
      const hosts = ["127.1", "2130706433", "0x7f.1"];
      const tcp = hosts.map((host, i) => ({ id: 20 + i, interval: 1, fields: { type: "tcp", host, port } }));
      const r = runner();
      r.apply(assign("v1", tcp as unknown as ReturnType<typeof http>[], false));
      await runChecks(r, [20, 21, 22]);
      expect(await r.sync(SERVER, "good")).toBe("sent");
      expect(hub.stored.map((s) => s.error)).toEqual(hosts.map(() => "Target refused: 127.0.0.1 is a private or local address, which this instance does not allow as a target"));
      expect(accepted).toBe(0);
    } finally {
      listener.close();
    }
  });

  test("a refused credential is 'revoked' and keeps the results; an older server without the call is 'unsupported'", async () => {
    const r = runner();
    r.apply(assign("v1", [http(6)]));
    await r.runNow(6);
    expect(await r.sync(SERVER, "wrong")).toBe("revoked");
    expect(r.pending).toBe(1);
    const old = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("Not found", { status: 404 }) });
    try {
      expect(await r.sync(`http://127.0.0.1:${old.port}`, "good")).toBe("unsupported");
      expect(await r.sync(`http://127.0.0.1:${old.port}`, "good")).toBe("unsupported");
      expect(r.logs.filter((l) => l.includes("does not take check results")).length).toBe(1); // said once
    } finally {
      old.stop(true);
    }
    expect(r.pending).toBe(1);
  });

  test("a result the server refuses on its own is dropped (bisected out); the others are sent", async () => {
    hub.assignments = assign("v1", [http(1), http(99)]);
    hub.refuse.add(99);
    const r = runner();
    r.apply(hub.assignments);
    await runChecks(r, [1, 1, 99, 1]);
    expect(await r.sync(SERVER, "good")).toBe("dropped");
    expect(hub.stored.map((s) => s.monitorId)).toEqual([1, 1, 1]);
    expect(r.pending).toBe(0);
    expect(r.logs.some((l) => l.includes("dropped it (monitor 99"))).toBe(true);
  });

  test("results the server refuses in its reply are dropped and said once per reason, not at every sync", async () => {
    hub.assignments = assign("v1", [http(1), http(5)]);
    hub.notAssigned.add(5);
    const r = runner();
    r.apply(hub.assignments);
    await runChecks(r, [1, 5, 5]);
    expect(await r.sync(SERVER, "good")).toBe("dropped");
    expect(hub.stored.map((s) => s.monitorId)).toEqual([1]);
    expect(r.pending).toBe(0);
    const said = (logs: string[]) => logs.filter((l) => l.includes("refused"));
    expect(said(r.logs)).toEqual(["the server refused 2 check result(s) of monitor(s) 5: This monitor is not assigned to this agent (NOT_ASSIGNED); dropped them"]);
    await runChecks(r, [5]);
    expect(await r.sync(SERVER, "good")).toBe("dropped");
    expect(r.pending).toBe(0);
    expect(said(r.logs)).toHaveLength(1);
  });

  test("a long backlog goes in calls of at most MAX_PROBE_RESULTS, oldest first; past capacity the oldest are dropped", async () => {
    const statePath = join(tempDir(), "probe-results.json");
    const results = Array.from({ length: 2500 }, (_, i) => ({ monitorId: 1, time: 1_000 + i, up: true, responseTime: 5, httpStatus: 200, error: null }));
    writeFileSync(statePath, JSON.stringify({ format: 1, results }));
    hub.assignments = assign("v1", [http(1)]);
    const r = runner({ statePath });
    expect(r.pending).toBe(2500);
    expect(await r.sync(SERVER, "good")).toBe("sent");
    expect(hub.calls.map((c) => c.count)).toEqual([1000, 1000, 500]);
    expect(hub.stored.map((s) => s.time)).toEqual(results.map((x) => x.time));

    const small = runner({ capacity: 2 });
    small.apply(assign("v1", [http(1)]));
    await runChecks(small, [1, 1, 1]);
    expect(small.pending).toBe(2);
    expect(small.logs).toContain("check results buffer full: dropped the 1 oldest result(s)");
  });
});

describe("toResult", () => {
  test("whole milliseconds, the error cut to the server's limit, ping stats kept", () => {
    const long = "x".repeat(MAX_PROBE_ERROR + 50);
    const r = toResult(4, { time: 1000.4, up: false, responseTime: 12.6, httpStatus: null, error: long, ping: { sent: 3, received: 2, loss: 33.3, min: 0.041, avg: 0.05, max: 0.06 } });
    expect(r).toMatchObject({ monitorId: 4, time: 1000, responseTime: 13, httpStatus: null, ping: { sent: 3, received: 2, min: 0.041 } });
    expect(r.error!.length).toBe(MAX_PROBE_ERROR);
    expect(toResult(4, { time: 1, up: true, responseTime: null, httpStatus: 200, error: null })).toEqual({ monitorId: 4, time: 1, up: true, responseTime: null, httpStatus: 200, error: null });
  });
});
