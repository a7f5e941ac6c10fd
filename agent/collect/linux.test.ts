import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Collector } from ".";
import {
  cpuUsage, diskUsage, networkRates, parseCpuModel, parseLoadavg, parseMeminfo, parseMounts, parseNetDev,
  parseOsRelease, parseProcStat, parseUptime,
} from "./linux";

const FIXTURES = join(import.meta.dir, "fixtures");
const fixture = (path: string) => readFileSync(join(FIXTURES, path), "utf8");

describe("/proc parsers", () => {
  test("CPU usage from two /proc/stat readings", () => {
    const a = parseProcStat(fixture("proc/stat"));
    // user nice system idle iowait irq softirq steal
    expect(a).toEqual({ idle: 81000, total: 95000 });
    const b = parseProcStat("cpu  10600 500 3200 80150 1050 0 500 0 0 0\n");
    // Δtotal = 1000, Δidle = 200 → 80 % busy
    expect(cpuUsage(a, b)).toBe(80);
    expect(cpuUsage(a, a)).toBe(0);
  });

  test("CPU model", () => {
    expect(parseCpuModel(fixture("proc/cpuinfo"))).toBe("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz");
    expect(parseCpuModel("processor : 0\nHardware : BCM2835\n")).toBe("BCM2835");
  });

  test("memory: used = MemTotal − MemAvailable", () => {
    expect(parseMeminfo(fixture("proc/meminfo"))).toEqual({
      total: 8_000_000 * 1024,
      used: 2_000_000 * 1024,
      free: 1_000_000 * 1024,
      usageRate: 25,
    });
  });

  test("memory without MemAvailable (old kernels) estimates it", () => {
    const m = parseMeminfo("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 100 kB\nCached: 300 kB\n");
    expect(m.used).toBe(500 * 1024);
  });

  test("real file systems only, one per device, escaped mount points decoded", () => {
    expect(parseMounts(fixture("proc/mounts"))).toEqual([
      { device: "/dev/sda1", mountPoint: "/", fsType: "ext4" },
      { device: "/dev/sdb1", mountPoint: "/mnt/My Data", fsType: "xfs" },
    ]);
    expect(parseMounts(fixture("proc/mounts"), ["/mnt/My Data"]).map((m) => m.device)).toEqual(["/dev/sdb1"]);
  });

  test("disk usage like df", () => {
    const d = diskUsage({ device: "/dev/sda1", mountPoint: "/", fsType: "ext4" }, () => ({ bsize: 4096, blocks: 1000, bfree: 300, bavail: 200 }));
    expect(d).toMatchObject({ total: 4_096_000, used: 2_867_200, free: 819_200 });
    expect(d.usageRate).toBeCloseTo((700 / 900) * 100, 1);
  });

  test("network counters skip lo and veth; rates are per second", () => {
    const counters = parseNetDev(fixture("proc/net/dev"));
    expect(counters.map((c) => c.name)).toEqual(["eth0", "wlan0"]);
    expect(counters[0]).toEqual({ name: "eth0", received: 480831260, packetsReceived: 11264, sent: 495156, packetsSent: 5625 });
    expect(parseNetDev(fixture("proc/net/dev"), ["lo"]).map((c) => c.name)).toEqual(["lo"]);
    const prev = new Map(counters.map((c) => [c.name, c]));
    const later = counters.map((c) => ({ ...c, received: c.received + 10_000, sent: c.sent + 5_000 }));
    const rates = networkRates(prev, later, 10);
    expect(rates[0]).toMatchObject({ rxRate: 1000, txRate: 500 });
    // a counter reset is not a negative rate
    expect(networkRates(prev, [{ ...counters[0], received: 0 }], 10)[0].rxRate).toBe(0);
  });

  test("load, uptime, OS name", () => {
    expect(parseLoadavg(fixture("proc/loadavg"))).toEqual({ one: 0.52, five: 0.58, fifteen: 0.59 });
    expect(parseUptime(fixture("proc/uptime"))).toBe(86400.5);
    expect(parseOsRelease(fixture("etc/os-release"))).toBe("Debian GNU/Linux 12 (bookworm)");
  });
});

describe("Collector on fixtures", () => {
  test.skipIf(process.platform !== "linux")("takes a full sample and host facts", () => {
    const c = new Collector({ procRoot: FIXTURES, agentVersion: "1.2.3" });
    const s = c.sample();
    expect(s.memory.usageRate).toBe(25);
    expect(s.load.one).toBe(0.52);
    expect(s.cpu.model).toContain("Xeon");
    expect(s.network.map((n) => n.name)).toEqual(["eth0", "wlan0"]);
    const h = c.host();
    expect(h).toMatchObject({ os: "Debian GNU/Linux 12 (bookworm)", uptime: 86400.5, agentVersion: "1.2.3" });
  });
});

describe("on this machine", () => {
  test.skipIf(process.platform !== "linux" || !Bun.which("free"))("memory used matches `free -b` within 2 %", () => {
    const out = Bun.spawnSync(["free", "-b"]).stdout.toString();
    const [, total, used] = out.split("\n")[1].trim().split(/\s+/).map(Number);
    const ours = parseMeminfo(readFileSync("/proc/meminfo", "utf8"));
    expect(Math.abs(ours.total - total) / total).toBeLessThan(0.02);
    expect(Math.abs(ours.used - used) / total).toBeLessThan(0.02);
  });
});
