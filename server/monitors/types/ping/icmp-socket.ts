// ICMP echo through the kernel's unprivileged "ping" datagram sockets (Linux: socket(AF_INET, SOCK_DGRAM,
// IPPROTO_ICMP), allowed to the groups in net.ipv4.ping_group_range — Docker containers allow everyone by default).
// No root, no raw socket, no ping program: the kernel sets the echo identifier to the socket's own and hands this
// socket only the replies to it. Bun has no such socket, so libc's socket/sendto/recvfrom are called through bun:ffi;
// the socket is non-blocking and polled, and each reply's round trip is measured from the kernel's receive timestamp
// (SIOCGSTAMP), so the polling's own delay does not count.
import { dlopen, FFIType, ptr } from "bun:ffi";
import type { PingRun, Pinger } from "./pinger";

const AF_INET = 2;
const AF_INET6 = 10;
const SOCK_DGRAM = 2;
const SOCK_NONBLOCK = 0o4000;
const IPPROTO_ICMP = 1;
const IPPROTO_ICMPV6 = 58;
const SIOCGSTAMP = 0x8906;
/** Sends are this far apart, like ping's shortest interval for unprivileged users. */
export const PACKET_SPACING_MS = 200;

type Libc = ReturnType<typeof openLibc>;

function openLibc() {
  const { i32, i64, u64, u32 } = FFIType;
  return dlopen("libc.so.6", {
    socket: { args: [i32, i32, i32], returns: i32 },
    sendto: { args: [i32, FFIType.ptr, u64, i32, FFIType.ptr, u32], returns: i64 },
    recvfrom: { args: [i32, FFIType.ptr, u64, i32, FFIType.ptr, FFIType.ptr], returns: i64 },
    ioctl: { args: [i32, u64, FFIType.ptr], returns: i32 },
    close: { args: [i32], returns: i32 },
  }).symbols;
}

/** A sockaddr_in / sockaddr_in6 for an address (port 0: ping sockets ignore it). */
function sockaddr(address: string, family: 4 | 6): Buffer {
  if (family === 4) {
    const b = Buffer.alloc(16);
    b.writeUInt16LE(AF_INET, 0);
    address.split(".").forEach((octet, i) => (b[4 + i] = Number(octet)));
    return b;
  }
  const b = Buffer.alloc(28);
  b.writeUInt16LE(AF_INET6, 0);
  expandIpv6(address).copy(b, 8);
  return b;
}

/** "fe80::1" → its 16 bytes. */
export function expandIpv6(address: string): Buffer {
  const [head, tail = ""] = address.split("::");
  const words = (s: string) => (s ? s.split(":") : []);
  let parts = words(head!);
  let rest = words(tail);
  // An embedded IPv4 address at the end ("::ffff:1.2.3.4") is two words.
  const last = (address.includes("::") ? rest : parts).at(-1);
  if (last?.includes(".")) {
    const o = last.split(".").map(Number);
    const v4 = [((o[0]! << 8) | o[1]!).toString(16), ((o[2]! << 8) | o[3]!).toString(16)];
    if (address.includes("::")) rest = [...rest.slice(0, -1), ...v4];
    else parts = [...parts.slice(0, -1), ...v4];
  }
  const fill = address.includes("::") ? 8 - parts.length - rest.length : 0;
  const all = [...parts, ...Array(fill).fill("0"), ...rest];
  const out = Buffer.alloc(16);
  all.forEach((w, i) => out.writeUInt16BE(parseInt(w || "0", 16), i * 2));
  return out;
}

/** An echo request: type, code 0, checksum (the kernel fills it in too), identifier 0 (the kernel's), sequence. */
function echoRequest(family: 4 | 6, sequence: number): Buffer {
  const b = Buffer.alloc(16);
  b[0] = family === 4 ? 8 : 128;
  b.writeUInt16BE(sequence, 6);
  b.writeDoubleBE(Date.now(), 8);
  if (family === 4) {
    let sum = 0;
    for (let i = 0; i < b.length; i += 2) sum += b.readUInt16BE(i);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
    b.writeUInt16BE(~sum & 0xffff, 2);
  }
  return b;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The wall clock in ms with sub-ms precision: the same clock as the kernel's receive timestamps. */
const wallNow = () => performance.timeOrigin + performance.now();

/**
 * The datagram-socket pinger, or null where it cannot work: not Linux, no glibc (musl: the ping program then), or the
 * kernel refuses this process's group (net.ipv4.ping_group_range).
 */
export function socketPinger(): Pinger | null {
  if (process.platform !== "linux") return null;
  let libc: Libc;
  try {
    libc = openLibc();
  } catch {
    return null;
  }
  const probe = libc.socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, IPPROTO_ICMP);
  if (probe < 0) return null;
  libc.close(probe);
  return {
    method: "socket",
    ping: (address, family, count, timeoutMs, signal) => run(libc, address, family, count, timeoutMs, signal),
  };
}

async function run(libc: Libc, address: string, family: 4 | 6, count: number, timeoutMs: number, signal?: AbortSignal): Promise<PingRun> {
  const fd = libc.socket(family === 4 ? AF_INET : AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK, family === 4 ? IPPROTO_ICMP : IPPROTO_ICMPV6);
  if (fd < 0) throw new Error(`ICMP${family === 6 ? "v6" : ""} sockets are not allowed here`);
  const to = sockaddr(address, family);
  const replyType = family === 4 ? 0 : 129;
  const sentAt: number[] = [];
  const rtts: (number | null)[] = Array(count).fill(null);
  const buffer = Buffer.alloc(1500);
  const stamp = Buffer.alloc(16);
  let sent = 0;
  let received = 0;
  try {
    const drain = () => {
      for (;;) {
        const n = Number(libc.recvfrom(fd, ptr(buffer), buffer.length, 0, null, null));
        if (n < 8) return;
        if (buffer[0] !== replyType) continue;
        const seq = buffer.readUInt16BE(6) - 1;
        if (seq < 0 || seq >= sent || rtts[seq] !== null) continue;
        const at = libc.ioctl(fd, SIOCGSTAMP, ptr(stamp)) === 0
          ? Number(stamp.readBigInt64LE(0)) * 1000 + Number(stamp.readBigInt64LE(8)) / 1000
          : wallNow();
        const rtt = at - sentAt[seq]!;
        if (rtt <= timeoutMs) {
          rtts[seq] = Math.max(0, rtt);
          received++;
        }
      }
    };
    const start = wallNow();
    let wait = 1;
    for (;;) {
      if (signal?.aborted) throw Object.assign(new Error("aborted"), { name: "AbortError" });
      const now = wallNow();
      if (sent < count && now >= start + sent * PACKET_SPACING_MS) {
        sentAt[sent] = wallNow();
        const packet = echoRequest(family, sent + 1);
        const n = Number(libc.sendto(fd, ptr(packet), packet.length, 0, ptr(to), to.length));
        // A send the kernel refuses (no route) is a lost packet, as ping counts it.
        sent++;
        if (n < 0) continue;
        wait = 1;
      }
      drain();
      const lastDeadline = sent === count ? sentAt[count - 1]! + timeoutMs : Infinity;
      if (received === count || wallNow() >= lastDeadline) break;
      // Poll often right after a send (replies on a LAN come within a millisecond), then back off.
      const nextSend = sent < count ? start + sent * PACKET_SPACING_MS - wallNow() : Infinity;
      await sleep(Math.max(0, Math.min(wait, nextSend, lastDeadline - wallNow())));
      wait = Math.min(wait * 2, 25);
    }
  } finally {
    libc.close(fd);
  }
  return { sent, rtts };
}
