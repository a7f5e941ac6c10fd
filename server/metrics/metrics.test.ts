import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testHost as host, testSample as sample } from "../agents/test-fixtures";
import { createServices } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import type { TlsProbe } from "../monitors/tls-probe";
import type { Checker } from "../monitors/types/http/http";
import { fakeClock, testApp } from "../test-support";
import { CONTENT_TYPE, escapeLabelValue, Exposition, formatValue } from "./exposition";
import { BucketHistogram, LATENESS_BUCKETS } from "./histogram";

// ── A small parser of the text format, strict enough to catch what Prometheus would refuse ──────────────────────

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/;

/** Label pairs of `{a="x",b="y"}`, unescaping `\\`, `\"` and `\n`; throws on anything else. */
function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 1;
  while (text[i] !== "}") {
    const eq = text.indexOf("=", i);
    const key = text.slice(i, eq);
    if (!NAME.test(key) || text[eq + 1] !== '"') throw new Error(`bad label at ${i} in ${text}`);
    let value = "";
    let j = eq + 2;
    for (; text[j] !== '"'; j++) {
      if (j >= text.length) throw new Error(`unterminated label value in ${text}`);
      if (text[j] === "\\") {
        const next = text[++j];
        if (next === "\\" || next === '"') value += next;
        else if (next === "n") value += "\n";
        else throw new Error(`bad escape \\${next} in ${text}`);
      } else value += text[j];
    }
    if (key in labels) throw new Error(`label ${key} twice in ${text}`);
    labels[key] = value;
    i = j + 1;
    if (text[i] === ",") i++;
    else if (text[i] !== "}") throw new Error(`expected , or } at ${i} in ${text}`);
  }
  if (i !== text.length - 1) throw new Error(`text after labels in ${text}`);
  return labels;
}

function parseValue(text: string): number {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (text === "NaN") return NaN;
  if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) throw new Error(`bad value ${text}`);
  return Number(text);
}

/** Parses an exposition; every family has HELP then TYPE before its samples, and appears once. */
function parse(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  expect(text.endsWith("\n")).toBe(true);
  let current: Family | undefined;
  for (const l of text.slice(0, -1).split("\n")) {
    let m: RegExpMatchArray | null;
    if ((m = l.match(/^# HELP (\S+) (.*)$/))) {
      const name = m[1]!;
      if (!NAME.test(name) || families.has(name)) throw new Error(`HELP for ${name} again or invalid`);
      current = { name, type: "", help: m[2]!, samples: [] };
      families.set(name, current);
    } else if ((m = l.match(/^# TYPE (\S+) (gauge|counter|histogram|summary|untyped)$/))) {
      if (!current || current.name !== m[1] || current.type) throw new Error(`TYPE ${m[1]} without its HELP just before`);
      current.type = m[2]!;
    } else if ((m = l.match(SAMPLE_LINE))) {
      const name = m[1]!;
      if (!current || !current.type) throw new Error(`sample ${name} before any HELP/TYPE`);
      const base = current.type === "histogram" ? name.replace(/_(bucket|sum|count)$/, "") : name;
      if (base !== current.name) throw new Error(`sample ${name} inside family ${current.name}`);
      if (current.type === "counter" || current.type === "gauge") expect(name).toBe(current.name);
      current.samples.push({ name, labels: m[2] ? parseLabels(m[2]) : {}, value: parseValue(m[3]!) });
    } else throw new Error(`not a valid line: ${JSON.stringify(l)}`);
  }
  for (const f of families.values()) if (!f.type) throw new Error(`${f.name} has no TYPE`);
  return families;
}

/** The value of one sample: `metric(families, "vigil_monitor_up", { id: "1" })`; undefined when absent. */
function metric(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.get(name.replace(/_(bucket|sum|count)$/, "")) ?? families.get(name);
  const found = family?.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found && found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found?.[0]?.value;
}

// ── Setup: the app with a scripted checker, a fake TLS probe and a fake clock for the scheduler ─────────────────

let lastText = "";
const opened: Db[] = [];

async function setup() {
  const answers = new Map<string, "up" | "down">();
  const checker: Checker = async (target) => {
    const up = (answers.get(target.url) ?? "up") === "up";
    return { time: Date.now(), up, responseTime: up ? 12 : null, httpStatus: up ? 200 : null, error: up ? null : "connection refused" };
  };
  const tlsExpiry = Date.now() + 10 * 86_400_000;
  const tls = { get: (url: string) => (url.startsWith("https:") ? tlsExpiry : undefined), clear: () => {} } as TlsProbe;
  const clock = fakeClock(Date.now());
  const db = await testDb();
  opened.push(db);
  const services = await createServices(db, { monitors: { checker, tls, clock } });
  const t = await testApp({ db, services });
  const scrape = async (token: string) => {
    const res = await t.app.handle(new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${token}` } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(CONTENT_TYPE);
    lastText = await res.text();
    return parse(lastText);
  };
  return { ...t, answers, clock, scrape };
}

afterEach(async () => {
  setSystemTime();
  for (const db of opened.splice(0)) await db.close();
});

describe("GET /metrics", () => {
  test("needs a credential: 401 with the JSON envelope (not the UI's index.html)", async () => {
    const { call } = await setup();
    const none = await call("GET", "/metrics");
    expect([none.status, none.body.success, none.body.code]).toEqual([401, false, "UNAUTHORIZED"]);
    expect(none.body.message).toBeString();
    const bad = await call("GET", "/metrics", { token: "not-a-token" });
    expect([bad.status, bad.body.success]).toEqual([401, false]);
  });

  test("Prometheus scrapes with an API token; a revoked one gets 401", async () => {
    const { signUp, call, scrape } = await setup();
    const { token } = await signUp("alice");
    const created = await call<{ secret: string; token: { id: number } }>("POST", "/api/tokens", { token, body: { name: "prometheus" } });
    expect(created.status).toBe(201);
    expect((await scrape(created.body.secret)).get("vigil_build_info")).toBeDefined();
    expect((await call("DELETE", `/api/tokens/${created.body.token.id}`, { token })).status).toBe(200);
    const res = await call("GET", "/metrics", { token: created.body.secret });
    expect([res.status, res.body.success]).toEqual([401, false]);
  });

  test("a built UI's page fallback does not answer /metrics", async () => {
    const uiDir = mkdtempSync(join(tmpdir(), "vigil-ui-"));
    try {
      writeFileSync(join(uiDir, "index.html"), "<!doctype html><title>Vigil</title>");
      const { call } = await testApp({ uiDir });
      expect((await call("GET", "/some/page")).body).toMatchObject({ text: expect.stringContaining("<title>Vigil") });
      const res = await call("GET", "/metrics");
      expect([res.status, res.body.code]).toEqual([401, "UNAUTHORIZED"]);
    } finally {
      rmSync(uiDir, { recursive: true, force: true });
    }
  });

  test("an empty instance: every family has HELP and TYPE, counts are zero, process figures are there", async () => {
    const { signUp, scrape } = await setup();
    const { token } = await signUp("alice");
    const m = await scrape(token);
    for (const name of [
      "vigil_build_info",
      "vigil_monitors",
      "vigil_monitor_up",
      "vigil_monitor_response_time_seconds",
      "vigil_monitor_tls_days_left",
      "vigil_agents",
      "vigil_agent_online",
      "vigil_agent_cpu_ratio",
      "vigil_agent_memory_ratio",
      "vigil_agent_disk_ratio",
      "vigil_scheduler_lateness_seconds",
      "vigil_notification_outbox_pending",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "process_heap_bytes",
      "process_start_time_seconds",
    ]) {
      expect(m.get(name)?.help).toBeTruthy();
    }
    expect(m.get("process_cpu_seconds_total")!.type).toBe("counter");
    expect(m.get("vigil_scheduler_lateness_seconds")!.type).toBe("histogram");
    expect(metric(m, "vigil_build_info", { version: (await import("../version")).VERSION })).toBe(1);
    expect(metric(m, "vigil_monitors", { status: "up" })).toBe(0);
    expect(metric(m, "vigil_agents", { status: "online" })).toBe(0);
    expect(metric(m, "vigil_notification_outbox_pending")).toBe(0);
    expect(metric(m, "process_resident_memory_bytes")).toBeGreaterThan(1e6);
    expect(metric(m, "process_heap_bytes")).toBeGreaterThan(0);
    expect(metric(m, "process_cpu_seconds_total")).toBeGreaterThan(0);
    const start = metric(m, "process_start_time_seconds")!;
    expect(start).toBeLessThanOrEqual(Date.now() / 1000);
    expect(start).toBeGreaterThan(Date.now() / 1000 - 3600);
    expect(m.get("vigil_monitor_up")!.samples).toEqual([]);
    // This node: alone on its database, it checks every bucket.
    expect(metric(m, "vigil_node_info", { node: "local", role: "standalone" })).toBe(1);
    expect(metric(m, "vigil_node_leases", { node: "local" })).toBe(256);
    expect(metric(m, "vigil_node_monitors_scheduled", { node: "local" })).toBe(0);
    expect(m.get("vigil_node_checks_total")!.type).toBe("counter");
  });

  test("monitors: pending has no up sample, then down and up follow the checks; paused ones are only counted", async () => {
    const { signUp, call, scrape, answers } = await setup();
    const { token } = await signUp("alice");
    const make = async (body: Record<string, unknown>) => (await call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body })).body.monitor.id;
    const api = await make({ name: "API", url: "https://api.test/", retries: 0 });
    const paused = await make({ name: "Old", url: "http://old.test/", active: false });
    const labels = { id: String(api), name: "API" };

    let m = await scrape(token);
    expect(metric(m, "vigil_monitor_up", labels)).toBeUndefined(); // pending: never checked
    expect(metric(m, "vigil_monitors", { status: "pending" })).toBe(1);
    expect(metric(m, "vigil_monitors", { status: "paused" })).toBe(1);

    answers.set("https://api.test/", "down");
    expect((await call("POST", `/api/monitors/${api}/check`, { token })).status).toBe(200);
    m = await scrape(token);
    expect(metric(m, "vigil_monitor_up", labels)).toBe(0);
    expect(metric(m, "vigil_monitor_response_time_seconds", labels)).toBeUndefined(); // no answer
    expect(metric(m, "vigil_monitors", { status: "down" })).toBe(1);

    answers.set("https://api.test/", "up");
    await call("POST", `/api/monitors/${api}/check`, { token });
    await call("POST", `/api/monitors/${paused}/check`, { token }); // checked by hand, still paused
    m = await scrape(token);
    expect(metric(m, "vigil_monitor_up", labels)).toBe(1);
    expect(metric(m, "vigil_monitor_response_time_seconds", labels)).toBe(0.012);
    expect(metric(m, "vigil_monitor_tls_days_left", labels)).toBeCloseTo(10, 2);
    expect(metric(m, "vigil_monitors", { status: "up" })).toBe(1);
    expect(metric(m, "vigil_monitors", { status: "down" })).toBe(0);
    for (const name of ["vigil_monitor_up", "vigil_monitor_response_time_seconds", "vigil_monitor_tls_days_left"]) {
      expect(m.get(name)!.samples.map((s) => s.labels.id)).toEqual([String(api)]);
    }
  });

  test("an http monitor has no TLS sample, even with an expiry left in its row from an earlier https URL", async () => {
    const { signUp, call, scrape } = await setup();
    const { token } = await signUp("alice");
    const id = (await call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name: "S", url: "https://s.test/" } })).body.monitor.id;
    await call("POST", `/api/monitors/${id}/check`, { token });
    expect(metric(await scrape(token), "vigil_monitor_tls_days_left", { id: String(id) })).toBeNumber();
    await call("PUT", `/api/monitors/${id}`, { token, body: { url: "http://s.test/" } });
    await call("POST", `/api/monitors/${id}/check`, { token });
    expect(metric(await scrape(token), "vigil_monitor_tls_days_left", { id: String(id) })).toBeUndefined();
  });

  test("label values escape backslash, double quote and line feed", async () => {
    const { signUp, call, scrape } = await setup();
    const { token } = await signUp("alice");
    const name = 'a"b\\c\nd';
    const res = await call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name, url: "http://x.test/" } });
    expect(res.status).toBe(201);
    await call("POST", `/api/monitors/${res.body.monitor.id}/check`, { token });
    const m = await scrape(token);
    expect(m.get("vigil_monitor_up")!.samples[0]).toBeDefined();
    expect(lastText).toContain(`vigil_monitor_up{id="${res.body.monitor.id}",name="a\\"b\\\\c\\nd",type="http"} 1\n`);
    expect(m.get("vigil_monitor_up")!.samples).toEqual([{ name: "vigil_monitor_up", labels: { id: String(res.body.monitor.id), name, type: "http" }, value: 1 }]);
    expect(escapeLabelValue(name)).toBe('a\\"b\\\\c\\nd');

    // A rename shows at the next scrape (label sets are cached per monitor while the name stays).
    await call("PUT", `/api/monitors/${res.body.monitor.id}`, { token, body: { name: "renamed" } });
    expect((await scrape(token)).get("vigil_monitor_up")!.samples[0]!.labels.name).toBe("renamed");
    expect(escapeLabelValue("plain name")).toBe("plain name");
  });

  test("agents: online with CPU, memory and the fullest disk as ratios; offline keeps only online=0 and last seen", async () => {
    const { signUp, call, scrape, services } = await setup();
    const { token } = await signUp("alice");
    const regToken = (await call<{ token: string }>("POST", "/api/agents/tokens", { token })).body.token;
    const reg = await call<{ credential: string; agentId: number }>("POST", "/api/agents/register", { body: { token: regToken, name: "web-1", host } });
    const labels = { id: String(reg.body.agentId), name: "web-1" };

    let m = await scrape(token);
    expect(metric(m, "vigil_agent_online", labels)).toBe(0); // registered, not reported yet
    expect(metric(m, "vigil_agents", { status: "connecting" })).toBe(1);
    expect(metric(m, "vigil_agent_cpu_ratio", labels)).toBeUndefined();

    const s = sample(Date.now(), 37.5);
    s.disks.push({ device: "/dev/sdb1", mountPoint: "/data", fsType: "ext4", total: 1e12, used: 9e11, free: 1e11, usageRate: 90 });
    expect((await call("POST", "/api/agents/report", { token: reg.body.credential, body: { host, interval: 10, samples: [s] } })).status).toBe(200);
    m = await scrape(token);
    expect(metric(m, "vigil_agent_online", labels)).toBe(1);
    expect(metric(m, "vigil_agent_cpu_ratio", labels)).toBe(0.375);
    expect(metric(m, "vigil_agent_memory_ratio", labels)).toBe(0.25);
    expect(metric(m, "vigil_agent_disk_ratio", labels)).toBe(0.9);
    const seen = metric(m, "vigil_agent_last_seen_timestamp_seconds", labels)!;
    expect(Math.abs(seen - Date.now() / 1000)).toBeLessThan(5);
    expect(metric(m, "vigil_agents", { status: "online" })).toBe(1);

    setSystemTime(new Date(Date.now() + 10 * 60_000));
    services.agents.checkPresence();
    m = await scrape(token);
    expect(metric(m, "vigil_agent_online", labels)).toBe(0);
    expect(metric(m, "vigil_agents", { status: "offline" })).toBe(1);
    for (const name of ["vigil_agent_cpu_ratio", "vigil_agent_memory_ratio", "vigil_agent_disk_ratio"]) expect(metric(m, name, labels)).toBeUndefined();
    expect(metric(m, "vigil_agent_last_seen_timestamp_seconds", labels)).toBe(seen);
  });

  test("the scheduler feeds the lateness histogram: cumulative buckets, +Inf equals _count, _sum in seconds", async () => {
    const { signUp, scrape, services, clock } = await setup();
    const { token } = await signUp("alice");
    const monitors = services.monitors;
    const { id } = await monitors.create({ name: "late", url: "http://late.test/", interval: 1 });
    monitors.start({ maintenanceDelayMs: 3_600_000 });
    try {
      await clock.advance(0); // the immediate check on create: not a slot, not counted
      // A stalled event loop: the next two slots start 30 ms and 2 s late.
      for (const lateMs of [30, 2000]) {
        clock.jump(monitors.scheduler.nextDue(id)! - clock.now() + lateMs);
        await clock.advance(0);
      }
    } finally {
      await monitors.stop(0);
    }
    const m = await scrape(token);
    const bucket = (le: string) => metric(m, "vigil_scheduler_lateness_seconds_bucket", { le });
    expect(LATENESS_BUCKETS.map((b) => bucket(formatValue(b)))).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2]);
    expect(bucket("+Inf")).toBe(2);
    expect(metric(m, "vigil_scheduler_lateness_seconds_count")).toBe(2);
    expect(metric(m, "vigil_scheduler_lateness_seconds_sum")).toBeCloseTo(2.03, 9);
  });

  test("gzip when the scraper accepts it (Prometheus does), the same text inside", async () => {
    const { signUp, services, app, scrape } = await setup();
    const { token } = await signUp("alice");
    for (let i = 0; i < 100; i++) await services.monitors.checkNow((await services.monitors.create({ name: `svc ${i}`, url: `https://svc-${i}.test/` })).id);
    const res = await app.handle(new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${token}`, "accept-encoding": "gzip" } }));
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const text = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer())));
    const m = parse(text);
    expect(m.get("vigil_monitor_up")!.samples).toHaveLength(100);
    expect([...m.keys()]).toEqual([...(await scrape(token)).keys()]);
    expect(lastText.length).toBeGreaterThan(4096);
  });

  test("the outbox backlog counts messages waiting to be sent", async () => {
    const { signUp, call, scrape, services } = await setup();
    const { token } = await signUp("alice");
    const ch = await call<{ channel: { id: number } }>("POST", "/api/notifications/channels", {
      token,
      body: { name: "hook", type: "webhook", config: { url: "https://hooks.test/x" } },
    });
    expect(ch.status).toBe(201);
    // The sender is not started: queued events wait.
    const event = { kind: "monitor.down", monitorId: 1, name: "API", at: Date.now(), error: "connection refused" } as never;
    await services.notifications.outbox.enqueue([ch.body.channel.id], event, "k1");
    await services.notifications.outbox.enqueue([ch.body.channel.id], event, "k2");
    const m = await scrape(token);
    expect(metric(m, "vigil_notification_outbox_events_waiting")).toBe(2);
    expect(metric(m, "vigil_notification_outbox_pending")).toBe(0);
  });
});

describe("the exposition writer", () => {
  test("histogram lines: bounds inclusive, cumulative, +Inf last", () => {
    const h = new BucketHistogram([0.1, 1]);
    for (const v of [0.05, 0.1, 0.5, 3]) h.observe(v);
    const text = new Exposition().histogram("x_seconds", "A test.", h, '{job="a"}').text();
    expect(text).toBe(
      [
        "# HELP x_seconds A test.",
        "# TYPE x_seconds histogram",
        'x_seconds_bucket{job="a",le="0.1"} 2',
        'x_seconds_bucket{job="a",le="1"} 3',
        'x_seconds_bucket{job="a",le="+Inf"} 4',
        'x_seconds_sum{job="a"} 3.65',
        'x_seconds_count{job="a"} 4',
        "",
      ].join("\n"),
    );
    expect(parse(text).get("x_seconds")!.samples).toHaveLength(5);
  });

  test("HELP escapes backslash and line feed; values spell the infinities as Prometheus does", () => {
    const text = new Exposition().single("y", "gauge", "a\\b\nc", Infinity).text();
    expect(text).toBe("# HELP y a\\\\b\\nc\n# TYPE y gauge\ny +Inf\n");
    expect(formatValue(-Infinity)).toBe("-Inf");
    expect(formatValue(NaN)).toBe("NaN");
    expect(formatValue(1e-7)).toBe("1e-7");
  });
});
