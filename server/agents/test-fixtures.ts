// A plausible agent for API tests: its host facts and a sample with one disk and one interface.
import type { HostInfo, Sample } from "./protocol";

export const testHost: HostInfo = { hostname: "web-1", ips: ["10.0.0.5"], os: "Debian GNU/Linux 12", kernel: "6.1.0", arch: "x64", uptime: 1234, agentVersion: "0.1.0" };

export const testSample = (time: number, cpu = 12.5): Sample => ({
  time,
  cpu: { usage: cpu, cores: 4, model: "Xeon" },
  memory: { total: 8e9, used: 2e9, free: 1e9, usageRate: 25 },
  disks: [{ device: "/dev/sda1", mountPoint: "/", fsType: "ext4", total: 1e11, used: 4e10, free: 6e10, usageRate: 40 }],
  network: [{ name: "eth0", rxRate: 1000, txRate: 500, received: 1e6, sent: 5e5, packetsReceived: 100, packetsSent: 50 }],
  load: { one: 0.5, five: 0.4, fifteen: 0.3 },
});
