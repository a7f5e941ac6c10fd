// GET /api/agents/:id/export on both engines: samples parse back to exactly those in the range, past several pages,
// with a CSV column per series (empty where a sample lacks one); bad requests are refused with the envelope; every
// signed-in role may export, nobody else.
import { describe, expect, test } from "bun:test";
import type { Sample } from "../agents/protocol";
import { testHost as host, testSample } from "../agents/test-fixtures";
import { testApp } from "../test-support";
import { samplesStream, seriesOrder } from "./samples";
import { PAGE_ROWS } from "./stream";
import { getter, parseCsv, viewerToken } from "./test-fixtures";

async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const register = async (name: string) => {
    const token = (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: admin.token })).body.token;
    const reg = await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { body: { token, name, host } });
    expect(reg.status).toBe(201);
    return reg.body;
  };
  const web = await register("Web 1");
  const insert = async (agentId: number, rows: { time: number; values: Record<string, number> }[]) => {
    for (let i = 0; i < rows.length; i += 1_000) await t.db.orm.insert(t.db.t.agentSamples).values(rows.slice(i, i + 1_000).map((r) => ({ agentId, ...r })));
  };
  return { ...t, admin, id: web.agentId, credential: web.credential, register, insert, get: getter(t.app) };
}

const BASE = { cpu: 10, memory: 50, load1: 0.5, load5: 0.4, load15: 0.3 };
const T0 = Date.UTC(2026, 10, 26, 23, 59, 55); // five seconds before a day's end

describe("export an agent's samples", () => {
  test("CSV: time, time_ms, a column per series in order; an empty cell where a sample lacks one; [from, to); names stay data", async () => {
    const s = await setup();
    await s.insert(s.id, [
      { time: T0 - 5_000, values: { ...BASE, "disk:/": 1 } }, // before the range
      { time: T0, values: { ...BASE, cpu: 12.5, "disk:/": 40, "rx:eth0": 1000, "tx:eth0": 500, "rx:=cmd": 7, "tx:=cmd": 8 } },
      // A disk mounted later, with a name that needs quoting; an interface gone.
      { time: T0 + 5_000, values: { "tx:eth0": 0, "disk:/mnt/a,\"b\"": 3, "disk:/": 41, ...BASE, "rx:eth0": 1, "load15": 2 } },
      { time: T0 + 10_000, values: { ...BASE } }, // at `to`: left out
    ]);
    const res = await s.get(`/api/agents/${s.id}/export?format=csv&from=2026-11-26T23:59:55Z&to=${T0 + 10_000}`, s.admin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="vigil-agent-${s.id}-samples-2026-11-26-2026-11-27.csv"`);
    expect(res.text.split("\r\n")[0]).toBe('time,time_ms,cpu,memory,load1,load5,load15,disk:/,"disk:/mnt/a,""b""",rx:=cmd,rx:eth0,tx:=cmd,tx:eth0');
    const [header, ...rows] = parseCsv(res.text);
    // "=cmd" as an interface name: its columns start "rx:", so no spreadsheet reads them as a formula.
    expect(header).toEqual(["time", "time_ms", "cpu", "memory", "load1", "load5", "load15", "disk:/", 'disk:/mnt/a,"b"', "rx:=cmd", "rx:eth0", "tx:=cmd", "tx:eth0"]);
    expect(rows).toEqual([
      ["2026-11-26T23:59:55.000Z", String(T0), "12.5", "50", "0.5", "0.4", "0.3", "40", "", "7", "1000", "8", "500"],
      ["2026-11-27T00:00:00.000Z", String(T0 + 5_000), "10", "50", "0.5", "0.4", "2", "41", "3", "", "1", "", "0"],
    ]);
  });

  test("a report sent by an agent comes out as it went in (NDJSON, the whole history by default); other agents' samples stay out", async () => {
    const s = await setup();
    const now = Date.now() - 60_000;
    const odd: Sample = { ...testSample(now + 10_000, 30), network: [{ name: "=cmd", rxRate: 9, txRate: 4, received: 1, sent: 1, packetsReceived: 1, packetsSent: 1 }] };
    const sent = await s.call("POST", "/api/agents/report", { token: s.credential, body: { host, interval: 10, samples: [testSample(now), odd] } });
    expect(sent.status).toBe(200);
    const other = await s.register("Db 1");
    await s.insert(other.agentId, [{ time: now + 5_000, values: BASE }]);

    const res = await s.get(`/api/agents/${s.id}/export?format=ndjson`, s.admin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="vigil-agent-${s.id}-samples-1970-01-01-\\d{4}-\\d{2}-\\d{2}\\.ndjson"$`));
    const lines = res.text.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { time: new Date(now).toISOString(), timeMs: now, values: { cpu: 12.5, memory: 25, load1: 0.5, load5: 0.4, load15: 0.3, "disk:/": 40, "rx:eth0": 1000, "tx:eth0": 500 } },
      { time: new Date(now + 10_000).toISOString(), timeMs: now + 10_000, values: { cpu: 30, memory: 25, load1: 0.5, load5: 0.4, load15: 0.3, "disk:/": 40, "rx:=cmd": 9, "tx:=cmd": 4 } },
    ]);
    expect(Object.keys(lines[1].values)).toEqual(["cpu", "memory", "load1", "load5", "load15", "disk:/", "rx:=cmd", "tx:=cmd"]); // in column order on both engines
    const csv = parseCsv((await s.get(`/api/agents/${s.id}/export`, s.admin.token)).text);
    expect(csv.map((row) => row.length)).toEqual([12, 12, 12]);
    expect(csv.flat().some((field) => /^[=+\-@]/.test(field))).toBe(false);
  });

  test(`more than two pages (${PAGE_ROWS} rows each): every sample once, in order, in both formats; a series of the last page only gets its column`, async () => {
    const s = await setup();
    const count = 2 * PAGE_ROWS + 7;
    const rows = Array.from({ length: count }, (_, i) => ({ time: T0 + i * 5_000, values: { ...BASE, cpu: i % 100, ...(i === count - 1 ? { "disk:/late": 1 } : {}) } }));
    await s.insert(s.id, rows);
    const ndjson = (await s.get(`/api/agents/${s.id}/export?format=ndjson`, s.admin.token)).text.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(ndjson.map((l) => l.timeMs)).toEqual(rows.map((r) => r.time));
    expect(ndjson[count - 1].values).toEqual({ ...BASE, cpu: (count - 1) % 100, "disk:/late": 1 });
    const [header, ...csv] = parseCsv((await s.get(`/api/agents/${s.id}/export?format=csv`, s.admin.token)).text);
    expect(header).toEqual(["time", "time_ms", "cpu", "memory", "load1", "load5", "load15", "disk:/late"]);
    expect(csv.length).toBe(count);
    expect(csv.map((r) => Number(r[1]))).toEqual(rows.map((r) => r.time));
    expect([csv[0]![7], csv[count - 1]![7], csv[count - 1]![2]]).toEqual(["", "1", String((count - 1) % 100)]);
  });

  test("small pages, ending exactly on a page's end or not: the key set spans every page, no row twice or lost", async () => {
    const s = await setup();
    const rows = Array.from({ length: 6 }, (_, i) => ({ time: T0 + i * 1_000, values: { cpu: i, [`rx:if${i}`]: i } }));
    await s.insert(s.id, rows);
    for (const [to, pageRows] of [[T0 + 6_000, 2], [T0 + 5_000, 2], [T0 + 6_000, 4]] as const) {
      const text = await new Response(samplesStream(s.db, s.id, { from: T0, to }, "csv", pageRows)).text();
      const [header, ...csv] = parseCsv(text);
      const n = (to - T0) / 1_000;
      expect(header).toEqual(["time", "time_ms", "cpu", ...Array.from({ length: n }, (_, i) => `rx:if${i}`)]);
      expect(csv.map((r) => r.slice(2))).toEqual(Array.from({ length: n }, (_, i) => [String(i), ...Array.from({ length: n }, (_, j) => (i === j ? String(i) : ""))]));
    }
  });

  test("bad requests: unknown format, unreadable or reversed range, unknown agent; signed out is 401; a viewer may export", async () => {
    const s = await setup();
    for (const [query, message] of [
      ["format=xlsx", "format must be csv or ndjson"],
      ["from=yesterday", "from must be Unix milliseconds or an ISO 8601 date-time (2026-01-31T00:00:00Z)"],
      ["to=2026-13-45", "to must be Unix milliseconds or an ISO 8601 date-time (2026-01-31T00:00:00Z)"],
      [`from=${T0 + 1}&to=${T0}`, "from must be before to"],
    ]) {
      const res = await s.get(`/api/agents/${s.id}/export?${query}`, s.admin.token);
      expect({ query, status: res.status, body: JSON.parse(res.text) }).toEqual({ query, status: 400, body: expect.objectContaining({ success: false, message }) });
    }
    const missing = await s.get("/api/agents/9999/export", s.admin.token);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({ success: false, message: "Agent not found" });
    expect((await s.get("/api/agents/abc/export", s.admin.token)).status).toBe(400);
    expect((await s.get(`/api/agents/${s.id}/export`)).status).toBe(401);
    expect((await s.get(`/api/agents/${s.id}/export`, s.credential)).status).toBe(401); // an agent's credential reads nothing

    await s.insert(s.id, [{ time: T0, values: BASE }]);
    const res = await s.get(`/api/agents/${s.id}/export?format=ndjson`, await viewerToken(s, s.admin.token));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ time: "2026-11-26T23:59:55.000Z", timeMs: T0, values: BASE });
  });
});

describe("seriesOrder", () => {
  test("the fixed series first, then disks, received, sent, each by name; anything else last", () => {
    expect(["tx:b", "x", "disk:/z", "rx:a", "load15", "disk:/", "cpu", "tx:a", "memory", "load1", "load5"].sort(seriesOrder)).toEqual([
      "cpu", "memory", "load1", "load5", "load15", "disk:/", "disk:/z", "rx:a", "tx:a", "tx:b", "x",
    ]);
  });
});
