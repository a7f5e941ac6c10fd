import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { ALLOW_PRIVATE, type Resolve } from "../../../net/targets";
import { expandIpv6, socketPinger } from "./icmp-socket";
import { checkPing, pingStats, pingVerdict, type PingTarget } from "./ping";
import { parsePingOutput, programPinger, type Pinger } from "./pinger";

// The ping type: its figures and verdict, both pingers against 127.0.0.1 (and ::1) and an address that never
// answers (TEST-NET-3), the address family, and the output of iputils' and BusyBox's ping.

const target = (over: Partial<PingTarget> = {}): PingTarget => ({ host: "127.0.0.1", pingCount: 3, pingFamily: "auto", pingLossThreshold: 100, maxResponseTime: null, timeout: 1, ...over });
const noResolve: Resolve = async () => {
  throw new Error("no lookups here");
};
const resolveTo = (addresses: string[]): Resolve => async () => addresses;

/** The kernel lets this process's group open ICMP datagram sockets (net.ipv4.ping_group_range). */
const socketAllowed = socketPinger() !== null;
const program = programPinger();
const range = (() => {
  try {
    return readFileSync("/proc/sys/net/ipv4/ping_group_range", "utf8").trim();
  } catch {
    return "none";
  }
})();

describe("figures and verdict", () => {
  test("loss in whole percent, round trips to the microsecond, the average as the response time", () => {
    expect(pingStats({ sent: 3, rtts: [0.0412, null, 1.2345] })).toEqual({ sent: 3, received: 2, loss: 33, min: 0.041, avg: 0.638, max: 1.235 });
    expect(pingStats({ sent: 2, rtts: [null, null] })).toEqual({ sent: 2, received: 0, loss: 100, min: null, avg: null, max: null });
  });

  test("down at the loss threshold or past the round-trip limit", () => {
    const some = pingStats({ sent: 4, rtts: [10, null, 12, 14] });
    expect(pingVerdict(some, { pingLossThreshold: 100, maxResponseTime: null })).toBeNull();
    expect(pingVerdict(some, { pingLossThreshold: 25, maxResponseTime: null })).toBe("packet loss 25 % (3 of 4 replies)");
    expect(pingVerdict(some, { pingLossThreshold: 100, maxResponseTime: 11 })).toBe("too slow: 12 ms > 11 ms");
    expect(pingVerdict(pingStats({ sent: 3, rtts: [null, null, null] }), { pingLossThreshold: 100, maxResponseTime: null })).toBe("packet loss 100 % (0 of 3 replies)");
  });

  test("ping's output, iputils and BusyBox", () => {
    const iputils = `PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.
64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.412 ms
64 bytes from 10.0.0.1: icmp_seq=3 ttl=64 time=1.05 ms

--- 10.0.0.1 ping statistics ---
3 packets transmitted, 2 received, 33.3333% packet loss, time 402ms`;
    expect(parsePingOutput(iputils, 3)).toEqual({ sent: 3, rtts: [0.412, null, 1.05] });
    const busybox = `PING 10.0.0.1 (10.0.0.1): 56 data bytes
64 bytes from 10.0.0.1: seq=0 ttl=64 time=0.101 ms
--- 10.0.0.1 ping statistics ---
2 packets transmitted, 1 packets received, 50% packet loss`;
    expect(parsePingOutput(busybox, 2)).toEqual({ sent: 2, rtts: [0.101, null] });
    expect(parsePingOutput("64 bytes from ::1: icmp_seq=0 ttl=64 time<1 ms\n1 packets transmitted", 1)).toEqual({ sent: 1, rtts: [1] });
  });

  test("IPv6 addresses to their 16 bytes", () => {
    expect(expandIpv6("::1").toString("hex")).toBe("00000000000000000000000000000001");
    expect(expandIpv6("2001:db8::8a2e:370:7334").toString("hex")).toBe("20010db80000000000008a2e03707334");
    expect(expandIpv6("::ffff:192.0.2.1").toString("hex")).toBe("00000000000000000000ffffc0000201");
  });
});

describe("checks", () => {
  test("no way to ping: down, saying so", async () => {
    const o = await checkPing(target(), null, ALLOW_PRIVATE, noResolve);
    expect(o).toMatchObject({ up: false, error: "ping is not available on this server: no ICMP socket allowed and no ping program" });
  });

  test("the family asked for: a name without such an address is down; the policy applies to every address", async () => {
    const fake: Pinger = { method: "socket", ping: async (_a, _f, count) => ({ sent: count, rtts: Array(count).fill(0.5) }) };
    expect((await checkPing(target({ host: "v4.example", pingFamily: "ipv6" }), fake, ALLOW_PRIVATE, resolveTo(["10.0.0.1"]))).error).toBe("no IPv6 address for v4.example");
    const seen: string[] = [];
    const spy: Pinger = { method: "socket", ping: async (a, f, count) => (seen.push(`${a}/${f}`), { sent: count, rtts: Array(count).fill(0.5) }) };
    const o = await checkPing(target({ host: "both.example", pingFamily: "ipv6" }), spy, ALLOW_PRIVATE, resolveTo(["10.0.0.1", "fd00::1"]));
    expect([o.up, seen]).toEqual([true, ["fd00::1/6"]]);
    const refused = await checkPing(target({ host: "inside.example" }), spy, { allowPrivate: false }, resolveTo(["10.0.0.1"]));
    expect(refused.error).toStartWith("Target refused: inside.example resolves to");
  });

  test("a host written as an address in another spelling is pinged at that address, and judged as it", async () => {
    const seen: string[] = [];
    const spy: Pinger = { method: "socket", ping: async (a, f, count) => (seen.push(`${a}/${f}`), { sent: count, rtts: Array(count).fill(0.5) }) };
    expect((await checkPing(target({ host: "0x7f.1" }), spy, ALLOW_PRIVATE, noResolve)).up).toBe(true);
    expect(seen).toEqual(["127.0.0.1/4"]);
    const metadata = await checkPing(target({ host: "2852039166" }), spy, ALLOW_PRIVATE, noResolve);
    expect(metadata.error).toStartWith("Target refused: 169.254.169.254 is a link-local");
    expect((await checkPing(target({ host: "127.1" }), spy, { allowPrivate: false }, noResolve)).error).toStartWith("Target refused: 127.0.0.1 is a private");
    expect(seen).toHaveLength(1);
  });

  const pingers: [string, Pinger | null, string][] = [
    ["the ICMP datagram socket", socketAllowed ? socketPinger() : null, `net.ipv4.ping_group_range is "${range}"`],
    ["the ping program", program, "no ping program on the PATH"],
  ];
  for (const [name, pinger, why] of pingers) {
    describe.skipIf(!pinger)(`${name}${pinger ? "" : ` (skipped: ${why})`}`, () => {
      test("127.0.0.1 answers: up, every packet back, short round trips", async () => {
        const o = await checkPing(target({ pingCount: 3 }), pinger, ALLOW_PRIVATE, noResolve);
        expect(o.up).toBe(true);
        expect(o.ping).toMatchObject({ sent: 3, received: 3, loss: 0 });
        expect(o.ping!.min!).toBeGreaterThanOrEqual(0);
        expect(o.ping!.max!).toBeLessThan(50);
        expect(o.ping!.min!).toBeLessThanOrEqual(o.ping!.avg!);
        expect(o.responseTime).toBe(Math.round(o.ping!.avg!));
      });

      test("::1 answers over IPv6", async () => {
        const o = await checkPing(target({ host: "::1", pingCount: 1 }), pinger, ALLOW_PRIVATE, noResolve);
        expect(o).toMatchObject({ up: true, ping: { sent: 1, received: 1, loss: 0 } });
      });

      test("TEST-NET-3 never answers: down with 100 % loss after the timeout", async () => {
        const started = Date.now();
        const o = await checkPing(target({ host: "203.0.113.1", pingCount: 2, timeout: 1 }), pinger, ALLOW_PRIVATE, noResolve);
        expect(o.up).toBe(false);
        expect(o.error).toMatch(/^packet loss 100 % \(0 of [12] replies\)$/);
        expect(o.ping).toMatchObject({ received: 0, loss: 100, avg: null });
        expect(Date.now() - started).toBeLessThan(4_000);
      });
    });
  }
});
