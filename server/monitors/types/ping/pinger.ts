// How echo requests get sent: the kernel's unprivileged ICMP datagram sockets where they are allowed
// (icmp-socket.ts), else the system's ping program (iputils or BusyBox, which have their own permission to send
// ICMP), else nothing — and the UI says so (GET /api/monitors/ping-support).
import { PACKET_SPACING_MS, socketPinger } from "./icmp-socket";

/** What one run of `count` echo requests gave: how many went out, and each one's round trip in ms (null: lost). */
export interface PingRun {
  sent: number;
  rtts: (number | null)[];
}

export interface Pinger {
  readonly method: "socket" | "program";
  ping(address: string, family: 4 | 6, count: number, timeoutMs: number, signal?: AbortSignal): Promise<PingRun>;
}

/** Parses ping's output: the round trip of each reply by its icmp_seq (1-based), and how many were sent. */
export function parsePingOutput(output: string, count: number): PingRun {
  const rtts: (number | null)[] = Array(count).fill(null);
  // iputils says icmp_seq= from 1; BusyBox seq= from 0, and macOS icmp_seq= from 0.
  const fromZero = !output.includes("icmp_seq=") || /icmp_seq=0\b/.test(output);
  for (const m of output.matchAll(/\b(?:icmp_)?seq=(\d+)\b.*?time[=<]\s*([\d.]+)\s*ms/g)) {
    const i = fromZero ? Number(m[1]) : Number(m[1]) - 1;
    if (i >= 0 && i < count && rtts[i] === null) rtts[i] = Number(m[2]);
  }
  const transmitted = /(\d+) packets transmitted/.exec(output);
  return { sent: transmitted ? Number(transmitted[1]) : count, rtts };
}

/** The system's ping program, found on the PATH. */
export function programPinger(path = Bun.which("ping")): Pinger | null {
  if (!path) return null;
  return {
    method: "program",
    async ping(address, family, count, timeoutMs, signal) {
      const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
      // -w bounds the whole run (the last packet's wait included); -n: no reverse lookups.
      const deadline = Math.ceil(((count - 1) * PACKET_SPACING_MS + timeoutMs) / 1000) + 1;
      const args = [path, `-${family}`, "-n", "-c", String(count), "-i", String(PACKET_SPACING_MS / 1000), "-W", String(seconds), "-w", String(deadline), address];
      const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe", env: { LC_ALL: "C", PATH: process.env.PATH ?? "" }, signal });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (signal?.aborted) throw Object.assign(new Error("aborted"), { name: "AbortError" });
      // 0: replies, 1: none came. No route to the host: every packet is lost, as the socket pinger counts it.
      // Anything else is ping failing to run (a bad option, no permission).
      if (code !== 0 && code !== 1) {
        if (/unreachable/i.test(err + out)) return { sent: count, rtts: Array(count).fill(null) };
        throw new Error(`ping failed: ${(err || out).trim().split("\n")[0] || `exit ${code}`}`);
      }
      return parsePingOutput(out, count);
    },
  };
}

let chosen: Pinger | null | undefined;

/** The pinger this process uses, decided once: the datagram socket if allowed, else the program, else null. */
export function systemPinger(): Pinger | null {
  if (chosen === undefined) chosen = socketPinger() ?? programPinger();
  return chosen;
}
