// GET /api/monitors/:id/export on both engines: what comes out parses back to exactly the rows in the range, past
// several pages; bad requests are refused with the envelope; every signed-in role may export, nobody else.
import { describe, expect, test } from "bun:test";
import { testApp } from "../test-support";
import { CHECK_CSV_HEADER } from "./checks";
import { PAGE_ROWS } from "./stream";
import { csvField } from "./csv";
import { getter, parseCsv, viewerToken } from "./test-fixtures";

async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const created = await t.call<any>("POST", "/api/monitors", { token: admin.token, body: { name: "Shop", url: "http://127.0.0.1:9/", interval: 60, active: false } });
  expect(created.status).toBe(201);
  const id = created.body.monitor.id as number;
  return { ...t, admin, id, get: getter(t.app) };
}

const T0 = Date.UTC(2026, 0, 31, 23, 59, 0); // a check a minute before a month's end

describe("export a monitor's checks", () => {
  test("CSV: a header, one RFC 4180 row per check in [from, to), oldest first; awkward text survives and cannot run as a formula", async () => {
    const s = await setup();
    await s.db.orm.insert(s.db.t.checkResults).values([
      { monitorId: s.id, time: T0 - 60_000, up: true, responseTime: 10 }, // before the range
      { monitorId: s.id, time: T0, up: true, responseTime: 120, httpStatus: 200 },
      { monitorId: s.id, time: T0 + 60_000, up: false, responseTime: null, error: 'refused, "twice"\nthen =HYPERLINK("x")' },
      { monitorId: s.id, time: T0 + 120_000, up: false, error: "=1+1", maintenance: true },
      { monitorId: s.id, time: T0 + 180_000, up: true, responseTime: 7, ping: { sent: 3, received: 2, loss: 33.3, min: 1.5, avg: 2, max: 2.5 } },
      { monitorId: s.id, time: T0 + 240_000, up: true, responseTime: 8 }, // at `to`: left out
    ]);
    const res = await s.get(`/api/monitors/${s.id}/export?format=csv&from=2026-01-31T23:59:00Z&to=${T0 + 240_000}`, s.admin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="vigil-monitor-${s.id}-checks-2026-01-31-2026-02-01.csv"`);
    expect(res.text.startsWith(CHECK_CSV_HEADER)).toBe(true);
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual(["time", "status", "response_time_ms", "http_status", "error", "maintenance", "ping_sent", "ping_received", "ping_loss", "ping_min_ms", "ping_avg_ms", "ping_max_ms"]);
    expect(rows).toEqual([
      ["2026-01-31T23:59:00.000Z", "up", "120", "200", "", "false", "", "", "", "", "", ""],
      ["2026-02-01T00:00:00.000Z", "down", "", "", 'refused, "twice"\nthen =HYPERLINK("x")', "false", "", "", "", "", "", ""],
      ["2026-02-01T00:01:00.000Z", "down", "", "", "'=1+1", "true", "", "", "", "", "", ""],
      ["2026-02-01T00:02:00.000Z", "up", "7", "", "", "false", "3", "2", "33.3", "1.5", "2", "2.5"],
    ]);
  });

  test("NDJSON: one check per line, the same facts typed; the whole history by default", async () => {
    const s = await setup();
    await s.db.orm.insert(s.db.t.checkResults).values([
      { monitorId: s.id, time: T0, up: true, responseTime: 120, httpStatus: 200 },
      { monitorId: s.id, time: T0 + 60_000, up: false, error: "timeout", ping: { sent: 1, received: 0, loss: 100, min: null, avg: null, max: null } },
    ]);
    const res = await s.get(`/api/monitors/${s.id}/export?format=ndjson`, s.admin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(res.text.endsWith("\n")).toBe(true);
    expect(res.text.trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual([
      { time: "2026-01-31T23:59:00.000Z", status: "up", responseTime: 120, httpStatus: 200, error: null, maintenance: false, ping: null },
      { time: "2026-02-01T00:00:00.000Z", status: "down", responseTime: null, httpStatus: null, error: "timeout", maintenance: false, ping: { sent: 1, received: 0, loss: 100, min: null, avg: null, max: null } },
    ]);
  });

  test(`more than two pages (${PAGE_ROWS} rows each): every check once, in order; another monitor's checks stay out`, async () => {
    const s = await setup();
    const other = (await s.call<any>("POST", "/api/monitors", { token: s.admin.token, body: { name: "Other", url: "http://127.0.0.1:9/", active: false } })).body.monitor.id;
    const count = 2 * PAGE_ROWS + 7;
    const rows = Array.from({ length: count }, (_, i) => ({ monitorId: s.id, time: T0 + i * 1_000, up: i % 3 !== 0, responseTime: i % 1000 }));
    for (let i = 0; i < rows.length; i += 1_000) await s.db.orm.insert(s.db.t.checkResults).values(rows.slice(i, i + 1_000));
    await s.db.orm.insert(s.db.t.checkResults).values({ monitorId: other, time: T0 + 500, up: true });
    const res = await s.get(`/api/monitors/${s.id}/export?format=ndjson`, s.admin.token);
    const lines = res.text.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(lines.length).toBe(count);
    expect(lines.map((l) => Date.parse(l.time))).toEqual(rows.map((r) => r.time));
    expect(lines[count - 1]).toMatchObject({ status: count % 3 === 1 ? "down" : "up", responseTime: (count - 1) % 1000 });
  });

  test("bad requests: unknown format, unreadable or reversed range, unknown monitor; signed out is 401; a viewer may export", async () => {
    const s = await setup();
    for (const [query, message] of [
      ["format=xml", "format must be csv or ndjson"],
      ["from=yesterday", "from must be Unix milliseconds or an ISO 8601 date-time (2026-01-31T00:00:00Z)"],
      ["to=2026-13-45", "to must be Unix milliseconds or an ISO 8601 date-time (2026-01-31T00:00:00Z)"],
      [`from=${T0}&to=${T0}`, "from must be before to"],
    ]) {
      const res = await s.get(`/api/monitors/${s.id}/export?${query}`, s.admin.token);
      expect({ query, status: res.status, body: JSON.parse(res.text) }).toEqual({ query, status: 400, body: expect.objectContaining({ success: false, message }) });
    }
    const missing = await s.get("/api/monitors/9999/export", s.admin.token);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({ success: false, message: "Monitor not found" });
    expect((await s.get(`/api/monitors/abc/export`, s.admin.token)).status).toBe(400);
    expect((await s.get(`/api/monitors/${s.id}/export`)).status).toBe(401);

    const res = await s.get(`/api/monitors/${s.id}/export`, await viewerToken(s, s.admin.token));
    expect(res.status).toBe(200);
    expect(res.text).toBe(CHECK_CSV_HEADER);
  });
});

describe("csvField", () => {
  test("quotes what needs quoting, defuses formulas, leaves numbers and plain text alone", () => {
    expect([csvField("plain"), csvField(12), csvField(-1), csvField(true), csvField(null), csvField(undefined)]).toEqual(["plain", "12", "-1", "true", "", ""]);
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    for (const risky of ["=SUM(A1)", "+1", "-2", "@cmd", "\tx"]) expect(csvField(risky)).toBe(`'${risky}`);
  });
});
