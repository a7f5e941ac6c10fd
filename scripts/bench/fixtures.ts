// What several benchmarks simulate the same way: the local service monitors check, and a server agent's report.
import { createServer, type AddressInfo } from "node:net";
import type { Sample } from "../../server/agents/protocol";

/** A local HTTP target answering every check with a small 200 (`body`); `hits()` counts the requests it got. */
export function countingTarget(body = "ok") {
  let hits = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch() {
      hits++;
      return new Response(body);
    },
  });
  return { port: server.port, hits: () => hits, stop: () => server.stop(true) };
}

/** A local TCP listener (127.0.0.1) that accepts and closes every connection; `accepted()` counts them. */
export async function countingTcpListener() {
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    socket.on("error", () => {}); // the checker closes first at times: a reset here is expected
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, resolve));
  return { port: (server.address() as AddressInfo).port, accepted: () => accepted, stop: () => void server.close() };
}

/**
 * A plausible report of agent i at time t: 2 disks, 2 interfaces, figures moving on a wave of `periodMs` (a short one
 * makes every report differ; a long one gives charts a smooth day).
 */
export function agentSample(i: number, t: number, periodMs = 60_000): Sample {
  const wave = (k: number) => 50 + 40 * Math.sin(t / periodMs + i + k);
  return {
    time: t,
    cpu: { usage: Math.round(wave(0) * 100) / 100, cores: 4, model: "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz" },
    memory: { total: 8_589_934_592, used: Math.round((8_589_934_592 * wave(1)) / 100), free: 1_073_741_824, usageRate: Math.round(wave(1) * 100) / 100 },
    disks: [
      { device: "/dev/sda1", mountPoint: "/", fsType: "ext4", total: 107_374_182_400, used: 42_949_672_960, free: 64_424_509_440, usageRate: 40 },
      { device: "/dev/sdb1", mountPoint: "/var/lib/data", fsType: "xfs", total: 536_870_912_000, used: 268_435_456_000, free: 268_435_456_000, usageRate: 50 },
    ],
    network: [
      { name: "eth0", rxRate: Math.round(wave(2) * 1000), txRate: Math.round(wave(3) * 500), received: t, sent: t / 2, packetsReceived: t / 1000, packetsSent: t / 2000 },
      { name: "eth1", rxRate: 100, txRate: 50, received: 1e9, sent: 5e8, packetsReceived: 1e6, packetsSent: 5e5 },
    ],
    load: { one: wave(4) / 50, five: wave(5) / 50, fifteen: wave(6) / 50 },
  };
}
