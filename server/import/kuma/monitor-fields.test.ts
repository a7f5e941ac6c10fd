import { describe, expect, test } from "bun:test";
import { mapKumaMonitor, type MappedMonitor } from "./monitor-fields";
import type { Note } from "./section";

// Kuma columns the sample database does not exercise, mapped one by one.

const http = (extra: Record<string, unknown>) => ({ id: 1, name: "m", type: "http", url: "https://example.com/", interval: 60, timeout: 48, active: 1, ...extra });
const mapped = (row: Record<string, unknown>) => mapKumaMonitor(row, [], { tlsExpiryDays: 7 }) as MappedMonitor;
const skipOf = (row: Record<string, unknown>) => (mapKumaMonitor(row, [], { tlsExpiryDays: 7 }) as { skip?: Note }).skip?.text;

describe("Kuma monitor columns → Vigil fields", () => {
  test("auth: bearer becomes a header; NTLM, OAuth client credentials and mTLS cannot come across", () => {
    expect(mapped(http({ auth_method: "bearer", bearer_token: "t0k" })).change.headers).toEqual([{ name: "Authorization", value: "Bearer t0k" }]);
    expect(skipOf(http({ auth_method: "ntlm" }))).toContain("NTLM");
    expect(skipOf(http({ auth_method: "oauth2-cc" }))).toContain("OAuth 2");
    expect(skipOf(http({ auth_method: "mtls" }))).toContain("mTLS");
  });

  test("body encoding sets Content-Type unless a header does; a GET body is left out with a note", () => {
    expect(mapped(http({ method: "POST", body: "a=1", http_body_encoding: "form" })).change.headers).toEqual([{ name: "Content-Type", value: "application/x-www-form-urlencoded" }]);
    expect(mapped(http({ method: "PUT", body: "<a/>", http_body_encoding: "xml", headers: '{"content-type":"application/soap+xml"}' })).change.headers).toEqual([{ name: "content-type", value: "application/soap+xml" }]);
    const get = mapped(http({ method: "GET", body: "{}" }));
    expect(get.change).toMatchObject({ body: null, headers: [] });
    expect(get.notes.map((n) => n.text).join(" ")).toContain("no body with GET");
    expect(skipOf(http({ headers: "[1,2]" }))).toContain("not a JSON object");
  });

  test("JSON queries: Kuma's text comparison becomes a JSON value; a non-number with < is refused", () => {
    const q = (op: string, expected: string, path = "data.ready") => mapKumaMonitor(http({ type: "json-query", json_path: path, json_path_operator: op, expected_value: expected }), [], { tlsExpiryDays: null });
    expect((q("==", "true") as MappedMonitor).change.jsonPath).toBe("$.data.ready == true");
    expect((q("!=", "down") as MappedMonitor).change.jsonPath).toBe('$.data.ready != "down"');
    expect((q(">=", "2.5") as MappedMonitor).change.jsonPath).toBe("$.data.ready >= 2.5");
    expect((q("contains", "ok") as MappedMonitor).change.jsonPath).toBe('$.data.ready contains "ok"');
    expect((q("<", "many") as { skip: Note }).skip.text).toContain("not a number");
  });

  test("DNS: the resolver with its port (IPv6 bracketed), several resolvers → the first; record types Vigil lacks are skipped", () => {
    const dns = (extra: Record<string, unknown>) => ({ id: 2, name: "d", type: "dns", hostname: "example.com", dns_resolve_type: "A", interval: 60, timeout: 10, ...extra });
    expect(mapped(dns({ dns_resolve_server: "::1", port: 5353 })).change.dnsResolver).toBe("[::1]:5353");
    expect(mapped(dns({ dns_resolve_server: "1.1.1.1", port: 53 })).change.dnsResolver).toBe("1.1.1.1");
    const several = mapped(dns({ dns_resolve_server: "9.9.9.9, 1.1.1.1", port: 53 }));
    expect(several.change.dnsResolver).toBe("9.9.9.9");
    expect(several.notes.map((n) => n.text).join(" ")).toContain("one resolver");
    expect(skipOf(dns({ dns_resolve_type: "SRV" }))).toBe("Vigil cannot look up SRV records yet.");
  });

  test("limits: a long interval, a timeout not below the interval and many retries are brought within Vigil's, with notes", () => {
    const m = mapped(http({ interval: 172800, timeout: 0, maxretries: 25 }));
    expect(m.change).toMatchObject({ intervalSeconds: 86400, timeout: 60, retries: 10 });
    const t = mapped(http({ interval: 20, timeout: 30 }));
    expect(t.change.timeout).toBe(16);
    expect(t.notes.map((n) => n.text).join(" ")).toContain("not shorter than its interval");
    expect(mapped(http({ interval: 60, timeout: 2.5 })).change.timeout).toBe(2.5);
  });

  test("certificate expiry warnings on https become Vigil's expiry check at Kuma's nearest day", () => {
    expect(mapped(http({ expiry_notification: 1 })).change.tlsExpiryDays).toBe(7);
    expect(mapped(http({ expiry_notification: 0 })).change.tlsExpiryDays).toBeUndefined();
  });
});
