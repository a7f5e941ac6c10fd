import { describe, expect, test } from "bun:test";
import type { MonitorCheckEvent, PublicMonitor } from "../../api/monitors";
import { applyCheck, applyPush, displayStatus, formatAvailability, formatMs, parseStatusFilter, pingMs, pushExamples, pushUrl, sortForTriage, tlsExpiry } from "./model";
import {
  addTags,
  emptyForm,
  formFromMonitor,
  headerRow,
  isMonitorUrl,
  serverErrorField,
  splitTags,
  toMonitorInput,
  validateMonitorForm,
  withType,
  type MonitorFormValues,
} from "./formModel";
import { publicMonitor } from "./testing";
import { withSchedule } from "./intervals";

const monitor = publicMonitor;

const checkEvent = (over: Partial<MonitorCheckEvent["result"]> = {}, status: "up" | "down" | "pending" = "up", lastPushAt: number | null = null): MonitorCheckEvent => ({
  monitorId: 1,
  result: { monitorId: 1, time: 5_000, status: "up", responseTime: 12, httpStatus: 200, error: null, maintenance: false, ...over },
  status,
  consecutiveFailures: status === "up" ? 0 : 1,
  uptime24h: 100,
  lastPushAt,
});

const form = (over: Partial<MonitorFormValues> = {}): MonitorFormValues => ({ ...emptyForm(), name: "API", url: "https://example.com", ...over });

describe("displayStatus", () => {
  test("a paused monitor shows paused whatever its verdict", () => {
    expect(displayStatus({ active: true, status: "up", maintenance: false })).toBe("up");
    expect(displayStatus({ active: true, status: "pending", maintenance: false })).toBe("pending");
    expect(displayStatus({ active: false, status: "down", maintenance: false })).toBe("paused");
  });
  test("an active monitor in a maintenance window shows maintenance, a paused one paused", () => {
    expect(displayStatus({ active: true, status: "down", maintenance: true })).toBe("maintenance");
    expect(displayStatus({ active: false, status: "down", maintenance: true })).toBe("paused");
  });
});

describe("triage order and the status filter", () => {
  test("down first, then pending, up, paused; by name within a group", () => {
    const list = [
      monitor({ id: 1, name: "b-up", status: "up" }),
      monitor({ id: 2, name: "paused-down", status: "down", active: false }),
      monitor({ id: 3, name: "z-down", status: "down" }),
      monitor({ id: 4, name: "a-up", status: "up" }),
      monitor({ id: 5, name: "pending", status: "pending" }),
      monitor({ id: 6, name: "a-down", status: "down" }),
    ];
    expect(sortForTriage(list).map((m) => m.name)).toEqual(["a-down", "z-down", "pending", "a-up", "b-up", "paused-down"]);
    expect(list[0]!.name).toBe("b-up"); // the input is not reordered
  });

  test("?status= accepts the four display statuses and ignores anything else", () => {
    expect(parseStatusFilter("?status=down")).toBe("down");
    expect(parseStatusFilter("status=paused")).toBe("paused");
    expect(parseStatusFilter("?status=DOWN")).toBeNull();
    expect(parseStatusFilter("?status=offline")).toBeNull();
    expect(parseStatusFilter("")).toBeNull();
  });
});

describe("live updates", () => {
  test("a check updates status, response time, uptime and last checked", () => {
    const after = applyCheck(monitor(), checkEvent());
    expect(after).toMatchObject({ status: "up", statusChangedAt: 5_000, lastCheckedAt: 5_000, responseTime: 12, httpStatus: 200, uptime24h: 100, lastError: null });
    const failed = applyCheck(after, { ...checkEvent({ time: 6_000, status: "down", error: "status 500, expected 2xx", httpStatus: 500 }, "up"), consecutiveFailures: 1 });
    expect(failed).toMatchObject({ status: "up", statusChangedAt: 5_000, lastError: "status 500, expected 2xx", consecutiveFailures: 1 });
  });

  test("push: the last push time comes with each check (a call moves it, a missed check does not: the server says)", () => {
    const push = monitor({ type: "push", lastPushAt: 1_000 });
    const called = applyCheck(push, checkEvent({ responseTime: null, httpStatus: null }, "up", 5_000));
    expect(called.lastPushAt).toBe(5_000);
    const reported = applyCheck(called, checkEvent({ time: 6_000, status: "down", error: "reported down: disk full", responseTime: null, httpStatus: null }, "down", 6_000));
    expect(reported.lastPushAt).toBe(6_000);
    const missed = applyCheck(reported, checkEvent({ time: 70_000, status: "down", error: "no push within 1 min + 60 s", responseTime: null, httpStatus: null }, "down", 6_000));
    expect(missed.lastPushAt).toBe(6_000);
    expect(missed.lastCheckedAt).toBe(70_000);
    // Other types keep theirs (null) whatever the check.
    expect(applyCheck(monitor(), checkEvent()).lastPushAt).toBeNull();
  });

  test("an older check does not overwrite a newer one", () => {
    const m = monitor({ lastCheckedAt: 9_000, status: "down" });
    expect(applyCheck(m, checkEvent())).toBe(m);
  });

  test("list: check, status, created, updated, deleted; unknown ids change nothing", () => {
    const list = [monitor({ id: 1 }), monitor({ id: 3, name: "C" })];
    const checked = applyPush(list, { type: "monitor.check", data: checkEvent() });
    expect(checked[0].status).toBe("up");
    expect(checked[1]).toBe(list[1]);
    expect(applyPush(list, { type: "monitor.check", data: { ...checkEvent(), monitorId: 9 } })).toBe(list);

    const down = applyPush(checked, { type: "monitor.status", data: { monitorId: 1, name: "API", type: "http", url: "http://x.test/", from: "up", to: "down", at: 7_000 } });
    expect(down[0]).toMatchObject({ status: "down", statusChangedAt: 7_000 });

    const created = applyPush(list, { type: "monitor.change", data: { action: "created", monitorId: 2, monitor: monitor({ id: 2, name: "B" }) } });
    expect(created.map((m) => m.id)).toEqual([1, 2, 3]);
    const updated = applyPush(created, { type: "monitor.change", data: { action: "updated", monitorId: 2, monitor: monitor({ id: 2, name: "B2", active: false }) } });
    expect(updated[1]).toMatchObject({ name: "B2", active: false });
    const deleted = applyPush(updated, { type: "monitor.change", data: { action: "deleted", monitorId: 2 } });
    expect(deleted.map((m) => m.id)).toEqual([1, 3]);
    expect(applyPush(deleted, { type: "monitor.change", data: { action: "deleted", monitorId: 2 } })).toBe(deleted);
  });
});

describe("form validation", () => {
  test("a new form with a name and an http(s) URL is valid", () => {
    expect(validateMonitorForm(form())).toEqual({});
    expect(validateMonitorForm(form({ url: "http://127.0.0.1:8080/x?y=1" }))).toEqual({});
  });

  test("name and URL are required", () => {
    const errors = validateMonitorForm(form({ name: "  ", url: "" }));
    expect(errors.name).toBe("monitors.validation.nameRequired");
    expect(errors.url).toBe("monitors.validation.urlRequired");
    expect(validateMonitorForm(form({ name: "x".repeat(101) })).name).toBe("monitors.validation.nameTooLong");
  });

  test("only http and https URLs with a host", () => {
    for (const url of ["javascript:alert(1)", "ftp://example.com", "example.com", "http://", "https://exa mple.com", "file:///etc/passwd", "data:text/html,x"]) {
      expect({ url, error: validateMonitorForm(form({ url })).url }).toEqual({ url, error: "monitors.validation.urlInvalid" });
    }
    expect(isMonitorUrl(" https://example.com ")).toBe(true);
    expect(validateMonitorForm(form({ url: `https://e.com/${"a".repeat(2048)}` })).url).toBe("monitors.validation.urlTooLong");
  });

  test("interval: a whole number of seconds or minutes, 1 s to 24 h", () => {
    for (const interval of ["0", "-1", "1.5", "", "abc", "1441", "1e3", "1000000000"]) {
      expect({ interval, error: validateMonitorForm(form({ interval })).interval }).toEqual({ interval, error: "monitors.validation.intervalInvalid" });
    }
    expect(validateMonitorForm(form({ interval: "1", timeout: "30" }))).toEqual({});
    expect(validateMonitorForm(form({ interval: "1440" }))).toEqual({});
    expect(validateMonitorForm(form({ interval: "20", intervalUnit: "s", timeout: "16" }))).toEqual({});
    expect(validateMonitorForm(form({ interval: "86400", intervalUnit: "s", timeout: "30" }))).toEqual({});
    expect(validateMonitorForm(form({ interval: "86401", intervalUnit: "s" })).interval).toBe("monitors.validation.intervalInvalid");
    expect(toMonitorInput(form({ interval: "20", intervalUnit: "s", timeout: "0.8" }))).toMatchObject({ intervalSeconds: 20, retryIntervalSeconds: null, timeout: 0.8 });
  });

  test("retry interval: empty (the interval) or like the interval, and the timeout below it", () => {
    expect(toMonitorInput(form({ retryInterval: "10", retryIntervalUnit: "s", timeout: "5" }))).toMatchObject({ intervalSeconds: 300, retryIntervalSeconds: 10 });
    for (const retryInterval of ["0", "1.5", "abc", "2000"]) {
      expect(validateMonitorForm(form({ retryInterval, retryIntervalUnit: "min" })).retryInterval).toBe("monitors.validation.retryIntervalInvalid");
    }
    expect(validateMonitorForm(form({ retryInterval: "10", retryIntervalUnit: "s", timeout: "10" })).timeout).toBe("monitors.validation.timeoutTooLongRetry");
  });

  test("a new monitor's untouched timeout follows the interval (0.8 ×, at most 30 s); a typed one stays", () => {
    const v = form({});
    expect(withSchedule(v, { interval: "20", intervalUnit: "s" })).toEqual({ interval: "20", intervalUnit: "s", timeout: "16", autoTimeout: "16" });
    expect(withSchedule(v, { interval: "1", intervalUnit: "s" })).toMatchObject({ timeout: "0.8" });
    // Through a value that is not valid yet (typing "0" before "20"): it follows again once valid.
    expect(withSchedule({ ...v, interval: "0", intervalUnit: "s" }, { interval: "20" })).toMatchObject({ timeout: "16" });
    expect(withSchedule({ ...v, timeout: "12" }, { interval: "20", intervalUnit: "s" })).not.toHaveProperty("timeout");
    expect(withSchedule(formFromMonitor(monitor({})), { interval: "20", intervalUnit: "s" })).not.toHaveProperty("timeout");
    expect(formFromMonitor(monitor({ intervalSeconds: 20, interval: 1 / 3, retryIntervalSeconds: 120 }))).toMatchObject({ interval: "20", intervalUnit: "s", retryInterval: "2", retryIntervalUnit: "min" });
  });

  test("timeout: 0.1 to 60 seconds, fractions allowed, and below the interval", () => {
    expect(validateMonitorForm(form({ timeout: "0" })).timeout).toBe("monitors.validation.timeoutInvalid");
    expect(validateMonitorForm(form({ timeout: "0.05" })).timeout).toBe("monitors.validation.timeoutInvalid");
    expect(validateMonitorForm(form({ timeout: "0.5" }))).toEqual({});
    expect(validateMonitorForm(form({ timeout: "61" })).timeout).toBe("monitors.validation.timeoutInvalid");
    expect(validateMonitorForm(form({ interval: "1", timeout: "60" })).timeout).toBe("monitors.validation.timeoutTooLong");
    expect(validateMonitorForm(form({ interval: "1", timeout: "59" }))).toEqual({});
    // An invalid interval is reported once, not as a timeout problem too.
    expect(validateMonitorForm(form({ interval: "0", timeout: "30" })).timeout).toBeUndefined();
  });

  test("expected status: codes and classes, comma-separated", () => {
    for (const ok of ["200", "2xx", "2XX", "200,301", "200, 3xx", "200-299"]) expect(validateMonitorForm(form({ expectedStatus: ok }))).toEqual({});
    for (const bad of ["", "20", "600", "2x", "ok", "200,", "xx"]) {
      expect({ bad, error: validateMonitorForm(form({ expectedStatus: bad })).expectedStatus }).toEqual({ bad, error: "monitors.validation.expectedStatusInvalid" });
    }
  });

  test("retries: 0 to 10", () => {
    expect(validateMonitorForm(form({ retries: "0" }))).toEqual({});
    expect(validateMonitorForm(form({ retries: "10" }))).toEqual({});
    expect(validateMonitorForm(form({ retries: "11" })).retries).toBe("monitors.validation.retriesInvalid");
    expect(validateMonitorForm(form({ retries: "-1" })).retries).toBe("monitors.validation.retriesInvalid");
  });

  test("objective: empty for none, else 50 to 99.999 %; its window 1 to 90 whole days", () => {
    expect(validateMonitorForm(form({ objective: "", objectiveDays: "30" }))).toEqual({});
    expect(validateMonitorForm(form({ objective: "99.95", objectiveDays: "7" }))).toEqual({});
    for (const objective of ["49", "100", "x"]) expect(validateMonitorForm(form({ objective })).objective).toBe("monitors.validation.objectiveInvalid");
    for (const objectiveDays of ["0", "91", "1.5", ""]) expect(validateMonitorForm(form({ objectiveDays })).objectiveDays).toBe("monitors.validation.objectiveDaysInvalid");
    expect(toMonitorInput(form({ objective: " 99.9 ", objectiveDays: "28" }))).toMatchObject({ objective: 99.9, objectiveDays: 28 });
  });

  test("headers: names are tokens, not reserved; values have no line breaks; empty rows are ignored", () => {
    const good = headerRow("X-Token", "abc");
    const empty = headerRow("", "");
    expect(validateMonitorForm(form({ headers: [good, empty] }))).toEqual({});
    const noName = headerRow("", "value");
    const badName = headerRow("Bad Name", "v");
    const reserved = headerRow("Content-Length", "5");
    const badValue = headerRow("X-A", "line\nbreak");
    const errors = validateMonitorForm(form({ headers: [noName, badName, reserved, badValue] }));
    expect(errors[`headers.${noName.key}.name`]).toBe("monitors.validation.headerNameRequired");
    expect(errors[`headers.${badName.key}.name`]).toBe("monitors.validation.headerNameInvalid");
    expect(errors[`headers.${reserved.key}.name`]).toBe("monitors.validation.headerReserved");
    expect(errors[`headers.${badValue.key}.value`]).toBe("monitors.validation.headerValueInvalid");
    const many = Array.from({ length: 51 }, (_, i) => headerRow(`X-${i}`, "v"));
    expect(validateMonitorForm(form({ headers: many })).headers).toBe("monitors.validation.tooManyHeaders");
  });

  test("body: at most 64 KB, and only checked for methods that send one", () => {
    const big = "x".repeat(64 * 1024 + 1);
    expect(validateMonitorForm(form({ method: "POST", body: big })).body).toBe("monitors.validation.bodyTooLarge");
    expect(validateMonitorForm(form({ method: "GET", body: big }))).toEqual({});
  });
});

describe("payload", () => {
  test("numbers parsed, strings trimmed, empty header rows dropped", () => {
    const input = toMonitorInput(
      form({ name: " API ", url: " https://e.com ", interval: "2", timeout: "10", retries: "0", headers: [headerRow(" X-A ", "1"), headerRow("", "")], expectedStatus: " 200 " }),
    );
    expect(input).toEqual({
      parentId: null,
      objective: null,
      objectiveDays: 30,
      name: "API",
      type: "http",
      tags: [],
      url: "https://e.com",
      method: "GET",
      intervalSeconds: 120,
      retryIntervalSeconds: null,
      timeout: 10,
      expectedStatus: "200",
      retries: 0,
      followRedirects: true,
      active: true,
      upsideDown: false,
      dependsOn: [],
      headers: [{ name: "X-A", value: "1" }],
      body: null,
      keyword: null,
      keywordInvert: false,
      keywordCaseSensitive: false,
      jsonPath: null,
      maxResponseTime: null,
      ignoreTls: false,
      freshConnection: false,
      tlsExpiryDays: null,
    });
  });

  test("a body is sent only with a method that carries one", () => {
    expect(toMonitorInput(form({ method: "POST", body: '{"a":1}' })).body).toBe('{"a":1}');
    expect(toMonitorInput(form({ method: "POST", body: "" })).body).toBeNull();
    expect(toMonitorInput(form({ method: "GET", body: "left over" })).body).toBeNull();
  });

  test("an existing monitor round-trips through the form", () => {
    const m = monitor({ method: "PUT", intervalSeconds: 180, interval: 3, retryIntervalSeconds: 30, timeout: 20, expectedStatus: "200,3xx", retries: 4, followRedirects: false, active: false, headers: [{ name: "A", value: "b" }], body: "x" });
    const v = formFromMonitor(m);
    expect(validateMonitorForm(v)).toEqual({});
    const { name, url, method, intervalSeconds, retryIntervalSeconds, timeout, expectedStatus, retries, followRedirects, active, headers, body } = m;
    expect(toMonitorInput(v)).toMatchObject({ name, url, method, intervalSeconds, retryIntervalSeconds, timeout, expectedStatus, retries, followRedirects, active, headers, body });
  });
});

describe("check types: validation", () => {
  const tcp = (over: Partial<MonitorFormValues> = {}) => form({ type: "tcp", url: "", host: "db.example.com", port: "5432", ...over });
  const dns = (over: Partial<MonitorFormValues> = {}) => form({ type: "dns", url: "", host: "example.com", ...over });
  const push = (over: Partial<MonitorFormValues> = {}) => form({ type: "push", url: "", ...over });

  test("only the chosen type's fields are checked", () => {
    // A broken URL and header are no problem for a tcp monitor; a missing host is no problem for an http one.
    expect(validateMonitorForm(tcp({ url: "nope", expectedStatus: "x", headers: [headerRow("Bad Name", "v")] }))).toEqual({});
    expect(validateMonitorForm(form({ host: "not a host", port: "99999", dnsResolver: "x" }))).toEqual({});
    expect(validateMonitorForm(push({ timeout: "0", host: "" }))).toEqual({});
    expect(validateMonitorForm(dns({ port: "" }))).toEqual({});
  });

  test("http assertions: keyword and JSON path lengths, slow-answer limit below the timeout, TLS expiry days", () => {
    expect(validateMonitorForm(form({ keyword: "ok", jsonPath: '$.status == "ok"', maxResponseTime: "1000", tlsExpiryDays: "14" }))).toEqual({});
    expect(validateMonitorForm(form({ keyword: "x".repeat(501) })).keyword).toBe("monitors.validation.keywordTooLong");
    expect(validateMonitorForm(form({ jsonPath: "$" + ".a".repeat(250) })).jsonPath).toBe("monitors.validation.jsonPathTooLong");
    // The grammar is the server's to judge.
    expect(validateMonitorForm(form({ jsonPath: "status ==" }))).toEqual({});
    for (const bad of ["0", "-5", "1.5", "60001", "abc"]) {
      expect({ bad, error: validateMonitorForm(form({ maxResponseTime: bad })).maxResponseTime }).toEqual({ bad, error: "monitors.validation.maxResponseTimeInvalid" });
    }
    expect(validateMonitorForm(form({ timeout: "10", maxResponseTime: "10000" })).maxResponseTime).toBe("monitors.validation.maxResponseTimeTooLong");
    expect(validateMonitorForm(form({ timeout: "10", maxResponseTime: "9999" }))).toEqual({});
    // With a broken timeout the limit is not compared to it (one problem reported, not two).
    expect(validateMonitorForm(form({ timeout: "0", maxResponseTime: "50000" })).maxResponseTime).toBeUndefined();
    for (const bad of ["0", "366", "2.5"]) expect(validateMonitorForm(form({ tlsExpiryDays: bad })).tlsExpiryDays).toBe("monitors.validation.tlsExpiryDaysInvalid");
    expect(validateMonitorForm(form({ tlsExpiryDays: "365" }))).toEqual({});
  });

  test("tcp: a host (name or IP, no scheme, port or path) and a port from 1 to 65535", () => {
    for (const host of ["db.example.com", "DB.Example.com.", "10.0.0.5", "::1", "[::1]", "localhost", "my_host-1.internal"]) {
      expect({ host, errors: validateMonitorForm(tcp({ host })) }).toEqual({ host, errors: {} });
    }
    expect(validateMonitorForm(tcp({ host: " " })).host).toBe("monitors.validation.hostRequired");
    for (const host of ["db.example.com:5432", "db/x", "exa mple.com", "-bad.com", "a..b", "x".repeat(64) + ".com"]) {
      expect({ host, error: validateMonitorForm(tcp({ host })).host }).toEqual({ host, error: "monitors.validation.hostInvalid" });
    }
    expect(validateMonitorForm(tcp({ host: "https://db.example.com" })).host).toBe("monitors.validation.hostScheme");
    expect(validateMonitorForm(tcp({ port: "" })).port).toBe("monitors.validation.portRequired");
    for (const port of ["0", "65536", "1.5", "-1", "http"]) {
      expect({ port, error: validateMonitorForm(tcp({ port })).port }).toEqual({ port, error: "monitors.validation.portInvalid" });
    }
    expect(validateMonitorForm(tcp({ port: "65535" }))).toEqual({});
    expect(validateMonitorForm(tcp({ interval: "1", timeout: "60" })).timeout).toBe("monitors.validation.timeoutTooLong");
  });

  test("dns: a name, an optional resolver IP[:port], an optional expected answer", () => {
    expect(validateMonitorForm(dns({ host: "" })).host).toBe("monitors.validation.dnsNameRequired");
    expect(validateMonitorForm(dns({ host: "_dmarc.example.com" }))).toEqual({});
    for (const resolver of ["9.9.9.9", "127.0.0.1:5353", "::1", "[::1]:53", "[2001:db8::1]", " 1.1.1.1 "]) {
      expect({ resolver, errors: validateMonitorForm(dns({ dnsResolver: resolver })) }).toEqual({ resolver, errors: {} });
    }
    for (const resolver of ["dns.google", "9.9.9.9:0", "9.9.9.9:65536", "1.2.3", "::1:53x", "[::1]:", "256.1.1.1", "udp://9.9.9.9"]) {
      expect({ resolver, error: validateMonitorForm(dns({ dnsResolver: resolver })).dnsResolver }).toEqual({ resolver, error: "monitors.validation.resolverInvalid" });
    }
    expect(validateMonitorForm(dns({ dnsExpected: "x".repeat(256) })).dnsExpected).toBe("monitors.validation.dnsExpectedTooLong");
  });

  test("push: grace from 0 to 3600 s; no timeout", () => {
    expect(validateMonitorForm(push({ pushGrace: "0" }))).toEqual({});
    expect(validateMonitorForm(push({ pushGrace: "3600" }))).toEqual({});
    for (const bad of ["3601", "-1", "", "1.5"]) expect(validateMonitorForm(push({ pushGrace: bad })).pushGrace).toBe("monitors.validation.pushGraceInvalid");
  });
});

describe("tags", () => {
  test("typed text becomes tags: trimmed, split on commas, duplicates merged whatever their case", () => {
    expect(addTags([], " prod ")).toEqual({ tags: ["prod"], error: null });
    expect(addTags(["prod"], "PROD, eu  west ,，db")).toEqual({ tags: ["prod", "eu west", "db"], error: null });
    expect(addTags(["a"], "  ")).toEqual({ tags: ["a"], error: null });
    expect(splitTags("a,,b，c")).toEqual(["a", "b", "c"]);
  });

  test("at most 10 tags of at most 32 characters; a refused addition changes nothing", () => {
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(addTags(ten, "eleven")).toEqual({ tags: ten, error: "monitors.validation.tooManyTags" });
    expect(addTags(ten, "T0")).toEqual({ tags: ten, error: null }); // a duplicate is not one too many
    expect(addTags(["a"], `b, ${"x".repeat(33)}`)).toEqual({ tags: ["a"], error: "monitors.validation.tagTooLong" });
    expect(addTags([], "x".repeat(32)).error).toBeNull();
  });

  test("text left in the tag field is added when the form is sent, and checked", () => {
    expect(toMonitorInput(form({ tags: ["prod"], tagDraft: "api" })).tags).toEqual(["prod", "api"]);
    expect(validateMonitorForm(form({ tagDraft: "x".repeat(33) })).tags).toBe("monitors.validation.tagTooLong");
  });
});

describe("check types: payload and round trip", () => {
  test("each type sends the common fields and its own", () => {
    const base = { name: "M", tags: ["a"], intervalSeconds: 300, retryIntervalSeconds: null, retries: 1, active: true, upsideDown: false, objective: null, objectiveDays: 30, dependsOn: [], parentId: null };
    // A group: its rule and its own group, no timeout or retries.
    const { retries: _, ...common } = base;
    expect(toMonitorInput(form({ name: "M", tags: ["a"], type: "group", groupRule: "all", parentId: "7" }))).toEqual({ ...common, type: "group", groupRule: "all", parentId: 7 });
    expect(toMonitorInput(form({ name: "M", tags: ["a"], type: "tcp", host: " db.local ", port: " 5432 " }))).toEqual({ ...base, type: "tcp", timeout: 30, host: "db.local", port: 5432 });
    expect(toMonitorInput(form({ name: "M", tags: ["a"], type: "dns", host: "example.com", dnsRecordType: "MX", dnsResolver: " 127.0.0.1:5353 ", dnsExpected: "" }))).toEqual({
      ...base,
      type: "dns",
      timeout: 30,
      host: "example.com",
      dnsRecordType: "MX",
      dnsResolver: "127.0.0.1:5353",
      dnsExpected: null,
    });
    // No timeout for push: it fetches nothing.
    expect(toMonitorInput(form({ name: "M", tags: ["a"], type: "push", pushGrace: "120", timeout: "999" }))).toEqual({ ...base, type: "push", pushGrace: 120 });
    expect(
      toMonitorInput(form({ keyword: "OK", keywordInvert: true, keywordCaseSensitive: true, jsonPath: ' $.a == 1 ', maxResponseTime: "800", ignoreTls: true, freshConnection: true, tlsExpiryDays: "7" })),
    ).toMatchObject({ type: "http", keyword: "OK", keywordInvert: true, keywordCaseSensitive: true, jsonPath: "$.a == 1", maxResponseTime: 800, ignoreTls: true, freshConnection: true, tlsExpiryDays: 7 });
  });

  test("switching the type in the form keeps what the other types had", () => {
    let v = form({ url: "https://e.com", keyword: "ok" });
    v = { ...v, type: "tcp", host: "db", port: "22" };
    v = { ...v, type: "http" };
    expect(validateMonitorForm(v)).toEqual({});
    expect(toMonitorInput(v)).toMatchObject({ type: "http", url: "https://e.com", keyword: "ok" });
    expect(toMonitorInput({ ...v, type: "tcp" })).toMatchObject({ type: "tcp", host: "db", port: 22 });
  });

  test("a monitor of each type round-trips through the form", () => {
    const cases: Partial<PublicMonitor>[] = [
      { type: "http", tags: ["prod", "eu"], keyword: "ok", keywordInvert: true, jsonPath: "$.ready", maxResponseTime: 900, ignoreTls: true, freshConnection: true, tlsExpiryDays: 21 },
      { type: "tcp", host: "db.internal", port: 5432 },
      { type: "dns", host: "example.com", dnsRecordType: "TXT", dnsResolver: "[::1]:53", dnsExpected: "v=spf1 -all" },
      { type: "push", pushGrace: 300, pushToken: "abcdefghijklmnopqrstuvwx" },
    ];
    for (const over of cases) {
      const m = monitor(over);
      const v = formFromMonitor(m);
      expect({ type: m.type, errors: validateMonitorForm(v) }).toEqual({ type: m.type, errors: {} });
      const input = toMonitorInput(v);
      for (const [key, value] of Object.entries(over)) {
        if (key === "pushToken") continue; // not the user's to set
        expect({ key, value: (input as unknown as Record<string, unknown>)[key] }).toEqual({ key, value });
      }
    }
    // Empty optional numbers read as "", not "null".
    expect(formFromMonitor(monitor()).maxResponseTime).toBe("");
    expect(formFromMonitor(monitor({ port: null })).port).toBe("");
  });

  test("server refusals land under their field", () => {
    expect(serverErrorField("INVALID_JSON_PATH", "http")).toBe("jsonPath");
    expect(serverErrorField("INVALID_RESOLVER", "dns")).toBe("dnsResolver");
    expect(serverErrorField("INVALID_HOST", "tcp")).toBe("host");
    expect(serverErrorField("PORT_REQUIRED", "tcp")).toBe("port");
    expect(serverErrorField("MAX_RESPONSE_TIME_TOO_LONG", "http")).toBe("maxResponseTime");
    expect(serverErrorField("TARGET_FORBIDDEN", "http")).toBe("url");
    expect(serverErrorField("TARGET_FORBIDDEN", "tcp")).toBe("host");
    expect(serverErrorField("TARGET_FORBIDDEN", "dns")).toBe("dnsResolver");
    expect(serverErrorField("TIMEOUT_TOO_LONG", "push")).toBeNull();
    expect(serverErrorField("DEPENDENCY_CYCLE", "ping")).toBe("dependsOn");
    expect(serverErrorField("INTERNAL", "http")).toBeNull();
    expect(serverErrorField(undefined, "http")).toBeNull();
  });

  test("push URL and curl examples", () => {
    const url = pushUrl("http://vigil.local:3000/", "tok_en-1");
    expect(url).toBe("http://vigil.local:3000/api/push/tok_en-1");
    expect(pushExamples(url)).toEqual({
      up: 'curl -fsS -m 10 --retry 3 "http://vigil.local:3000/api/push/tok_en-1"',
      down: 'curl -fsS -m 10 "http://vigil.local:3000/api/push/tok_en-1?status=down&msg=backup%20failed"',
      post: 'curl -fsS -m 10 -X POST "http://vigil.local:3000/api/push/tok_en-1"',
    });
  });
});

describe("formatting", () => {
  test("response times", () => {
    expect(formatMs(12.4)).toBe("12 ms");
    expect([pingMs(0.0412, "-"), pingMs(9.996, "-"), pingMs(23.4, "-"), pingMs(null, "-")]).toEqual(["0.04 ms", "10.00 ms", "23 ms", "-"]);
    expect(formatMs(1234)).toBe("1,234 ms");
    expect(formatMs(null)).toBe("-");
    expect(formatMs(undefined, "—")).toBe("—");
  });

  test("availability: two decimals at most, rounded down", () => {
    expect(formatAvailability(100)).toBe("100%");
    expect(formatAvailability(99.5)).toBe("99.5%");
    expect(formatAvailability(99.95)).toBe("99.95%");
    expect(formatAvailability(99.999)).toBe("99.99%");
    expect(formatAvailability(0)).toBe("0%");
    expect(formatAvailability(null)).toBe("-");
  });

  test("TLS expiry: warn under 14 days, expired once past", () => {
    const day = 86_400_000;
    expect(tlsExpiry(100 * day, 0)).toEqual({ days: 100, level: "ok" });
    expect(tlsExpiry(14 * day, 0)).toEqual({ days: 14, level: "ok" });
    expect(tlsExpiry(13.5 * day, 0)).toEqual({ days: 13, level: "warn" });
    expect(tlsExpiry(0.5 * day, 0)).toEqual({ days: 0, level: "warn" });
    expect(tlsExpiry(0, day).level).toBe("expired");
  });
});

describe("the check strip", () => {
  const at = (time: number, status: "up" | "down" = "up") => ({ time, status, responseTime: 5, httpStatus: 200, error: null, maintenance: false });
  test("appends in order, keeps the newest 50, ignores a repeat", async () => {
    const { appendCheck, STRIP_LENGTH } = await import("./CheckStrip");
    let list = appendCheck(undefined, at(1));
    list = appendCheck(list, at(1)); // the same check pushed twice
    expect(list.map((c) => c.time)).toEqual([1]);
    for (let i = 2; i <= 60; i++) list = appendCheck(list, at(i, i % 2 ? "up" : "down"));
    expect(list).toHaveLength(STRIP_LENGTH);
    expect(list[0]!.time).toBe(11);
    expect(list.at(-1)!.time).toBe(60);
  });
});

test("choosing push for a new monitor starts it with no retries, unless retries were changed; edits keep them", () => {
  const v = emptyForm();
  expect(withType(v, "push", true)).toEqual({ type: "push", retries: "0" });
  expect(withType({ ...v, retries: "3" }, "push", true)).toEqual({ type: "push" });
  expect(withType({ ...v, type: "push", retries: "0" }, "tcp", true)).toEqual({ type: "tcp", retries: "1" });
  expect(withType(v, "push", false)).toEqual({ type: "push" });
});
