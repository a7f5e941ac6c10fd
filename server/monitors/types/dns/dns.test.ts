// The DNS check against the local responder (no internet): answers and their normal form, expected values, every
// failure sentence, resolver parsing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseCheckError } from "../../check-errors";
import { parseResolver } from "../address";
import { checkDns, dnsType, DnsError, queryDns, type DnsCheckFields } from "./dns";
import { defaultFields } from "../../field-rules";
import { startDnsResponder, type DnsResponder } from "./responder";
import { decodeQuestion, encodeRdata, encodeRecord } from "./wire";

let dns: DnsResponder;
let resolver: string;

const LONG_TXT = `v=DKIM1; k=rsa; p=${"A".repeat(300)}é`; // > 255 bytes: two character-strings, a UTF-8 char at the seam

beforeAll(async () => {
  dns = await startDnsResponder({
    "Example.COM": {
      A: ["93.184.216.34", "10.0.0.1"],
      AAAA: ["2001:DB8:0:0:0:0:0:1", "::ffff:192.0.2.1", "fe80::1:0:0:2"],
      MX: ["10 Mail.Example.com.", "20 backup.example.com"],
      TXT: ["v=spf1 -all", LONG_TXT],
      NS: ["NS1.Example.com.", "ns2.example.com"],
    },
    "www.example.com": { CNAME: ["Example.com."] },
    "empty.example.com": {},
    "many.example.com": { A: ["1.1.1.1", "1.1.1.2", "1.1.1.3", "1.1.1.4", "1.1.1.5", "1.1.1.6", "1.1.1.7"] },
  });
  dns.silence("slow.example.com");
  dns.fail("broken.example.com", "servfail");
  dns.fail("closed.example.com", "refused");
  resolver = `${dns.host}:${dns.port}`;
});

afterAll(() => dns.stop());

const fields = (host: string, over: Partial<DnsCheckFields> = {}): DnsCheckFields => ({
  host,
  dnsRecordType: "A",
  dnsResolver: resolver,
  dnsExpected: null,
  timeout: 2,
  ...over,
});

describe("queryDns", () => {
  test("every record type, normalised", async () => {
    const q = (name: string, type: DnsCheckFields["dnsRecordType"]) => queryDns({ name, type, resolver, timeoutMs: 2000 });
    expect((await q("example.com", "A")).answers).toEqual(["93.184.216.34", "10.0.0.1"]);
    expect((await q("example.com", "AAAA")).answers).toEqual(["2001:db8::1", "::ffff:c000:201", "fe80::1:0:0:2"]);
    expect((await q("www.example.com", "CNAME")).answers).toEqual(["example.com"]);
    expect((await q("example.com", "MX")).answers).toEqual(["10 mail.example.com", "20 backup.example.com"]);
    expect((await q("example.com", "TXT")).answers).toEqual(["v=spf1 -all", LONG_TXT]);
    expect((await q("example.com", "NS")).answers).toEqual(["ns1.example.com", "ns2.example.com"]);
  });

  test("names are case-insensitive and may end with a dot", async () => {
    expect((await queryDns({ name: "EXAMPLE.com.", type: "A", resolver, timeoutMs: 2000 })).answers).toHaveLength(2);
  });

  test("failures are typed", async () => {
    const kind = (name: string) =>
      queryDns({ name, type: "A", resolver, timeoutMs: 2000 }).then(
        () => "answered",
        (e: DnsError) => `${e.kind}: ${e.detail}`,
      );
    expect(await kind("nope.example.com")).toBe("notfound: does not exist");
    expect(await kind("broken.example.com")).toBe("failed: server failure");
    expect(await kind("closed.example.com")).toBe("failed: refused");
    expect((await queryDns({ name: "empty.example.com", type: "A", resolver, timeoutMs: 2000 })).answers).toEqual([]);
  });

  test("set() changes answers at once; queries are counted", async () => {
    const before = dns.queries;
    dns.set("changing.example.com", "TXT", ["one"]);
    expect((await queryDns({ name: "changing.example.com", type: "TXT", resolver, timeoutMs: 2000 })).answers).toEqual(["one"]);
    dns.set("changing.example.com", "TXT", ["two", "three"]);
    expect((await queryDns({ name: "changing.example.com", type: "TXT", resolver, timeoutMs: 2000 })).answers).toEqual(["two", "three"]);
    expect(dns.queries).toBe(before + 2);
  });
});

describe("checkDns", () => {
  test("up with answers; a numeric response time", async () => {
    const out = await checkDns(fields("example.com"));
    expect(out).toMatchObject({ up: true, httpStatus: null, error: null });
    expect(typeof out.responseTime).toBe("number");
    expect(out.time).toBeGreaterThan(Date.now() - 5000);
  });

  test.each([
    ["A", "93.184.216.34"],
    ["A", " 10.0.0.1 "],
    ["AAAA", "2001:db8:0::1"],
    ["AAAA", "FE80:0:0:0:1::2"],
    ["CNAME", "EXAMPLE.com."],
    ["MX", "10 mail.example.com"],
    ["MX", "10  MAIL.example.com."],
    ["MX", "backup.example.com"],
    ["TXT", "V=SPF1 -ALL"],
    ["NS", "ns2.example.com."],
  ] as const)("%s matches expected %p", async (type, expected) => {
    const host = type === "CNAME" ? "www.example.com" : "example.com";
    const out = await checkDns(fields(host, { dnsRecordType: type, dnsExpected: expected }));
    expect(out.error).toBeNull();
    expect(out.up).toBe(true);
  });

  test.each([
    ["A", "93.184.216.35"],
    ["MX", "20 mail.example.com"],
    ["MX", "mail.example"],
    ["TXT", "v=spf1"],
    ["CNAME", "example.org"],
  ] as const)("%s does not match expected %p", async (type, expected) => {
    const host = type === "CNAME" ? "www.example.com" : "example.com";
    const out = await checkDns(fields(host, { dnsRecordType: type, dnsExpected: expected }));
    expect(out.up).toBe(false);
    expect(out.error).toStartWith(`DNS: expected ${expected}, got `);
    expect(typeof out.responseTime).toBe("number");
  });

  test("an unexpected answer lists at most 5 answers", async () => {
    const out = await checkDns(fields("many.example.com", { dnsExpected: "9.9.9.9" }));
    expect(out.error).toBe("DNS: expected 9.9.9.9, got 1.1.1.1, 1.1.1.2, 1.1.1.3, 1.1.1.4, 1.1.1.5, …");
    expect(parseCheckError(out.error!).code).toBe("DNS_UNEXPECTED");
  });

  test("NXDOMAIN", async () => {
    const out = await checkDns(fields("Nope.example.com."));
    expect(out).toMatchObject({ up: false, error: "DNS: nope.example.com does not exist" });
    expect(typeof out.responseTime).toBe("number");
    expect(parseCheckError(out.error!)).toEqual({ code: "DNS_NOT_FOUND", params: { name: "nope.example.com" } });
  });

  test("a name without records of the type", async () => {
    const out = await checkDns(fields("empty.example.com", { dnsRecordType: "MX" }));
    expect(out).toMatchObject({ up: false, error: "DNS: no MX records for empty.example.com" });
    expect(parseCheckError(out.error!).code).toBe("DNS_EMPTY");
    // A name that has other types only is "empty" too, not "does not exist".
    expect((await checkDns(fields("www.example.com"))).error).toBe("DNS: no A records for www.example.com");
  });

  test("server failure and refusal", async () => {
    expect((await checkDns(fields("broken.example.com"))).error).toBe("DNS: server failure");
    expect((await checkDns(fields("closed.example.com"))).error).toBe("DNS: refused");
    expect(parseCheckError("DNS: server failure").code).toBe("DNS_FAILED");
  });

  test("timeout: no answer within the check's timeout", async () => {
    const started = Date.now();
    const out = await checkDns(fields("slow.example.com", { timeout: 1 }));
    expect(out).toMatchObject({ up: false, responseTime: null, error: "timeout after 1 s" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(1800);
  });

  test("abort cancels at once", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const out = await checkDns(fields("slow.example.com", { timeout: 5 }), controller.signal);
    expect(out).toMatchObject({ up: false, responseTime: null, error: "check cancelled" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("a resolver that is not listening fails fast (ICMP port unreachable)", async () => {
    const gone = await startDnsResponder();
    gone.stop();
    const started = Date.now();
    const out = await checkDns(fields("example.com", { dnsResolver: `127.0.0.1:${gone.port}`, timeout: 3 }));
    expect(out).toMatchObject({ up: false, error: "DNS: connection refused" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("an invalid resolver is a failure, not a throw", async () => {
    const out = await checkDns(fields("example.com", { dnsResolver: "dns.google" }));
    expect(out).toMatchObject({ up: false, responseTime: null, error: "DNS: invalid resolver dns.google" });
  });

  test("a truncated UDP answer is fetched again over TCP", async () => {
    // A server that only says "truncated" over UDP and answers over TCP on the same port number.
    const udp = await Bun.udpSocket({
      hostname: "127.0.0.1",
      socket: {
        data(sock, msg, port, address) {
          const q = decodeQuestion(msg)!;
          const out = Buffer.from(msg.subarray(0, q.end));
          out.writeUInt16BE(0x8000 | 0x0200 | 0x0100 | 0x0080, 2); // QR, TC, RD, RA
          out.writeUInt32BE(0x00010000, 4); // QDCOUNT 1, ANCOUNT 0
          out.writeUInt32BE(0, 8);
          sock.send(out, port, address);
        },
      },
    });
    const tcp = Bun.listen({
      hostname: "127.0.0.1",
      port: udp.port,
      socket: {
        data(sock, data) {
          const msg = data.subarray(2);
          const q = decodeQuestion(msg)!;
          const answers = ["a", "b"].map((t) => encodeRecord(q.name, "TXT", 0, encodeRdata("TXT", t.repeat(400))));
          const head = Buffer.from(msg.subarray(0, q.end));
          head.writeUInt16BE(0x8180, 2);
          head.writeUInt32BE(0x00010002, 4); // QDCOUNT 1, ANCOUNT 2
          head.writeUInt32BE(0, 8);
          const body = Buffer.concat([head, ...answers]);
          const length = Buffer.alloc(2);
          length.writeUInt16BE(body.length);
          sock.write(Buffer.concat([length, body]));
        },
      },
    });
    try {
      const { answers } = await queryDns({ name: "big.example.com", type: "TXT", resolver: `127.0.0.1:${udp.port}`, timeoutMs: 2000 });
      expect(answers).toEqual(["a".repeat(400), "b".repeat(400)]);
    } finally {
      tcp.stop(true);
      udp.close();
    }
  });

  test("many checks at once (the benchmark's load in a burst)", async () => {
    const before = dns.queries;
    const outs = await Promise.all(Array.from({ length: 500 }, () => checkDns(fields("example.com"))));
    expect(outs.every((o) => o.up)).toBe(true);
    expect(dns.queries - before).toBe(500);
  });
});

describe("the resolver and the address policy at check time", () => {
  test("a resolver the policy forbids (saved before --block-private-targets) is not asked", async () => {
    const before = dns.queries;
    const monitor = { ...defaultFields(), ...fields("example.com") };
    const ctx = { resolve: async () => [], now: Date.now };
    const refused = await dnsType.check(monitor, { ...ctx, policy: { allowPrivate: false } }, { lastPushAt: null, tlsExpiresAt: null, pushWatch: { since: 0, missedAt: null } });
    expect(refused).toMatchObject({ up: false, error: `Target refused: ${dns.host} is a private or local address, which this instance does not allow as a target` });
    expect(dns.queries).toBe(before);
    const allowed = await dnsType.check(monitor, { ...ctx, policy: { allowPrivate: true } }, { lastPushAt: null, tlsExpiresAt: null, pushWatch: { since: 0, missedAt: null } });
    expect(allowed?.up).toBe(true);
  });
});

describe("parseResolver", () => {
  test.each([
    ["1.1.1.1", { host: "1.1.1.1", port: 53 }],
    ["1.1.1.1:53", { host: "1.1.1.1", port: 53 }],
    [" 127.0.0.1:5353 ", { host: "127.0.0.1", port: 5353 }],
    ["[2606:4700::1111]:53", { host: "2606:4700::1111", port: 53 }],
    ["[::1]:5353", { host: "::1", port: 5353 }],
    ["[::1]", { host: "::1", port: 53 }],
    ["::1", { host: "::1", port: 53 }],
    ["2001:db8::53", { host: "2001:db8::53", port: 53 }],
    ["1.1.1.1:65535", { host: "1.1.1.1", port: 65535 }],
  ])("%p → %p", (raw, parsed) => {
    expect(parseResolver(raw)).toEqual(parsed);
  });

  test.each([
    "",
    "dns.google",
    "dns.google:53",
    "1.1.1",
    "1.1.1.256",
    "1.1.1.1:0",
    "1.1.1.1:65536",
    "1.1.1.1:",
    "1.1.1.1:5x",
    "1.1.1.1:-53",
    "[1.1.1.1]:53",
    "[::1]:",
    "[::1]:99999",
    "::1:53x",
    "[dns.google]:53",
    "https://1.1.1.1",
  ])("%p is not a resolver", (raw) => {
    expect(parseResolver(raw)).toBeNull();
  });
});
