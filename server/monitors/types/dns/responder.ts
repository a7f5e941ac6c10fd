// A tiny authoritative DNS server over UDP on 127.0.0.1, for the DNS check's tests and the benchmark: no internet
// needed, and every answer (NXDOMAIN, no data, silence, server failure) is under the test's control.
//
// Answers are encoded once, when a record set is stored, so a query costs one parse and one buffer copy (the benchmark
// sends thousands a minute). TTL is 0 so no client-side cache can hide a changed answer or an unanswered query.
import { createSocket } from "node:dgram";
import { RCODE, TYPE_CODE, decodeQuestion, encodeRdata, encodeRecord, normaliseName, type RecordType } from "./wire";

export type { RecordType } from "./wire";

/** name (case-insensitive, no trailing dot) → type → values; MX "10 mail.example.com", TXT the text. */
export type DnsZone = Record<string, Partial<Record<RecordType, string[]>>>;

export interface DnsResponder {
  host: "127.0.0.1";
  port: number;
  /** Queries answered. */
  readonly queries: number;
  /** Replaces a name's records of one type ([] → the name exists without that type). */
  set(name: string, type: RecordType, values: string[]): void;
  /** Names that never get an answer (timeouts). */
  silence(name: string): void;
  /** Names answered with an error code instead (for "server failure" / "refused" tests). */
  fail(name: string, rcode: "servfail" | "refused"): void;
  stop(): void;
}

/** A record set ready to send: its answer count and answer-section bytes. */
interface Encoded {
  count: number;
  bytes: Buffer;
}

const NO_ANSWERS: Encoded = { count: 0, bytes: Buffer.alloc(0) };

export async function startDnsResponder(records: DnsZone = {}): Promise<DnsResponder> {
  // qtype code → encoded answers, by lower-case name. A name in the map exists (NOERROR) even with no records.
  const zone = new Map<string, Map<number, Encoded>>();
  const silenced = new Set<string>();
  const failing = new Map<string, number>();
  let queries = 0;
  let stopped = false;

  const set = (name: string, type: RecordType, values: string[]) => {
    const key = normaliseName(name);
    // Encode eagerly: a bad value throws here, in the test that wrote it, not later in the socket callback.
    const parts = values.map((v) => encodeRecord(key, type, 0, encodeRdata(type, v)));
    let types = zone.get(key);
    if (!types) zone.set(key, (types = new Map()));
    types.set(TYPE_CODE[type], { count: parts.length, bytes: Buffer.concat(parts) });
  };
  for (const [name, types] of Object.entries(records)) {
    if (!zone.has(normaliseName(name))) zone.set(normaliseName(name), new Map());
    for (const [type, values] of Object.entries(types)) set(name, type as RecordType, values ?? []);
  }

  const answer = (msg: Buffer, port: number, address: string) => {
    const q = decodeQuestion(msg);
    if (!q || q.flags & 0x8000) return; // not a query: drop it, as servers do with garbage
    const name = normaliseName(q.name);
    if (silenced.has(name)) return;
    const types = zone.get(name);
    let rcode: number = failing.get(name) ?? (types ? RCODE.NOERROR : RCODE.NXDOMAIN);
    if ((q.flags >> 11) & 0x0f) rcode = RCODE.NOTIMP; // only standard queries (opcode 0)
    const records = rcode === RCODE.NOERROR ? (types?.get(q.qtype) ?? NO_ANSWERS) : NO_ANSWERS;

    // Response = the query's header and question as sent (id, 0x20 case), then the answers. Any EDNS record or
    // extra question after the first is dropped, and the counts say so.
    const out = Buffer.allocUnsafe(q.end + records.bytes.length);
    msg.copy(out, 0, 0, q.end);
    records.bytes.copy(out, q.end);
    out.writeUInt16BE(0x8000 | 0x0400 | (q.flags & 0x0100) | 0x0080 | rcode, 2); // QR, AA, RD copied, RA; rcode
    out.writeUInt16BE(1, 4);
    out.writeUInt16BE(records.count, 6);
    out.writeUInt32BE(0, 8); // NSCOUNT, ARCOUNT
    socket.send(out, port, address);
    queries++;
  };

  // node:dgram rather than Bun.udpSocket: only it can enlarge the receive buffer. With the default (≈ 208 KiB, about
  // 256 small datagrams) a burst of 500 simultaneous checks lost half its queries in the kernel before we read them.
  // The kernel caps the size at net.core.rmem_max without an error.
  const socket = createSocket({ type: "udp4", recvBufferSize: 4 << 20, sendBufferSize: 4 << 20 });
  socket.on("message", (msg, rinfo) => answer(msg, rinfo.port, rinfo.address));
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(0, "127.0.0.1", () => {
      socket.off("error", reject);
      resolve();
    });
  });
  socket.on("error", () => {}); // a send to a vanished client (ICMP unreachable) must not crash the test process

  return {
    host: "127.0.0.1",
    port: socket.address().port,
    get queries() {
      return queries;
    },
    set,
    silence: (name) => void silenced.add(normaliseName(name)),
    fail: (name, rcode) => void failing.set(normaliseName(name), rcode === "servfail" ? RCODE.SERVFAIL : RCODE.REFUSED),
    stop: () => {
      if (stopped) return; // idempotent: afterAll hooks may stop a responder a test already stopped
      stopped = true;
      socket.close();
    },
  };
}
