// The DNS wire format (RFC 1035, AAAA from RFC 3596), just the part Vigil needs: one question, answers of the six
// record types a DNS monitor checks. Used by the test/benchmark responder (responder.ts) and by the check's own UDP
// client (dns.ts), so both speak exactly the same bytes.
import { isIPv4, isIPv6 } from "node:net";
import type { DnsRecordType } from "../../public";

export type RecordType = DnsRecordType;

export const TYPE_CODE: Record<RecordType, number> = { A: 1, NS: 2, CNAME: 5, MX: 15, TXT: 16, AAAA: 28 };
const CLASS_IN = 1;

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

/** A name as the zone and the comparisons see it: lower case, no trailing dot. */
export const normaliseName = (name: string) => name.trim().replace(/\.$/, "").toLowerCase();

// ── encoding ──

/** A name as labels ("a.b" → 1 a 1 b 0); no compression (messages stay small and the code simple). */
export function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, "").split(".").filter((l) => l.length > 0);
  const parts: Buffer[] = [];
  for (const label of labels) {
    const bytes = Buffer.from(label, "utf8");
    if (bytes.length > 63) throw new Error(`DNS label longer than 63 bytes: ${label}`);
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  const out = Buffer.concat(parts);
  if (out.length > 255) throw new Error(`DNS name longer than 255 bytes: ${name}`);
  return out;
}

/** A value as written in a zone ("10 mail.example.com" for MX) → RDATA. */
export function encodeRdata(type: RecordType, value: string): Buffer {
  switch (type) {
    case "A": {
      if (!isIPv4(value)) throw new Error(`not an IPv4 address: ${value}`);
      return Buffer.from(value.split(".").map(Number));
    }
    case "AAAA":
      return ipv6Bytes(value);
    case "CNAME":
    case "NS":
      return encodeName(value);
    case "MX": {
      const m = /^\s*(\d{1,5})\s+(\S+)\s*$/.exec(value);
      if (!m || Number(m[1]) > 65535) throw new Error(`not an MX value ("10 mail.example.com"): ${value}`);
      const prio = Buffer.alloc(2);
      prio.writeUInt16BE(Number(m[1]));
      return Buffer.concat([prio, encodeName(m[2])]);
    }
    case "TXT": {
      // One record is a list of ≤ 255-byte character-strings; long text is split (a reader joins them back).
      const text = Buffer.from(value, "utf8");
      const parts: Buffer[] = [];
      for (let i = 0; i === 0 || i < text.length; i += 255) {
        const chunk = text.subarray(i, i + 255);
        parts.push(Buffer.from([chunk.length]), chunk);
      }
      return Buffer.concat(parts);
    }
  }
}

/** "2001:db8::1" → 16 bytes (also "::ffff:1.2.3.4"). */
function ipv6Bytes(address: string): Buffer {
  if (!isIPv6(address)) throw new Error(`not an IPv6 address: ${address}`);
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split(".").map(Number);
    text = text.slice(0, -v4[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail !== undefined && tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

/** One resource record: name, type, class IN, TTL, RDATA. */
export function encodeRecord(name: string, type: RecordType, ttl: number, rdata: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(TYPE_CODE[type], 0);
  fixed.writeUInt16BE(CLASS_IN, 2);
  fixed.writeUInt32BE(ttl, 4);
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([encodeName(name), fixed, rdata]);
}

/** The UDP payload size a query offers (EDNS0, RFC 6891): the size DNS Flag Day 2020 settled on. */
export const EDNS_UDP_SIZE = 1232;

/**
 * A recursive query (RD set) for one name and type. With `edns`, an OPT record offers answers up to 1 232 bytes
 * over UDP (plain DNS stops at 512, which long TXT sets exceed, forcing a TCP retry).
 */
export function encodeQuery(id: number, name: string, type: RecordType, edns = false): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2); // RD
  header.writeUInt16BE(1, 4); // QDCOUNT
  header.writeUInt16BE(edns ? 1 : 0, 10); // ARCOUNT
  const tail = Buffer.alloc(4);
  tail.writeUInt16BE(TYPE_CODE[type], 0);
  tail.writeUInt16BE(CLASS_IN, 2);
  if (!edns) return Buffer.concat([header, encodeName(name), tail]);
  // OPT: root name, type 41, class = UDP size, TTL 0 (extended rcode, version 0, no flags), no options.
  const opt = Buffer.alloc(11);
  opt.writeUInt16BE(41, 1);
  opt.writeUInt16BE(EDNS_UDP_SIZE, 3);
  return Buffer.concat([header, encodeName(name), tail, opt]);
}

// ── decoding ──

/** Reads a (possibly compressed) name at `offset`: the name and the offset after it in place. */
export function decodeName(msg: Uint8Array, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let pos = offset;
  let end = -1;
  for (let jumps = 0; ; ) {
    if (pos >= msg.length) throw new Error("truncated name");
    const len = msg[pos];
    if (len === 0) {
      if (end < 0) end = pos + 1;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      if (pos + 1 >= msg.length) throw new Error("truncated pointer");
      if (end < 0) end = pos + 2;
      pos = ((len & 0x3f) << 8) | msg[pos + 1];
      if (++jumps > 64) throw new Error("name pointer loop");
      continue;
    }
    if (len > 63 || pos + 1 + len > msg.length) throw new Error("bad label");
    labels.push(Buffer.from(msg.buffer, msg.byteOffset + pos + 1, len).toString("utf8"));
    pos += 1 + len;
  }
  return { name: labels.join("."), end };
}

export interface Question {
  id: number;
  flags: number;
  /** As sent (case kept). */
  name: string;
  qtype: number;
  qclass: number;
  /** Offset just after the question (header + question = what a response echoes). */
  end: number;
}

/** The header and first question of a message, or null when it is not one. */
export function decodeQuestion(msg: Uint8Array): Question | null {
  if (msg.length < 12) return null;
  const view = new DataView(msg.buffer, msg.byteOffset, msg.byteLength);
  if (view.getUint16(4) < 1) return null;
  try {
    const { name, end } = decodeName(msg, 12);
    if (end + 4 > msg.length) return null;
    return { id: view.getUint16(0), flags: view.getUint16(2), name, qtype: view.getUint16(end), qclass: view.getUint16(end + 2), end: end + 4 };
  } catch {
    return null;
  }
}

export interface DecodedResponse {
  id: number;
  rcode: number;
  truncated: boolean;
  /** Answers of the asked type, as text (see decodeRdata); other records (a CNAME chain's links) are skipped. */
  answers: string[];
}

/** A response to a question of `type`; throws on a malformed message. */
export function decodeResponse(msg: Uint8Array, type: RecordType): DecodedResponse {
  const q = decodeQuestion(msg);
  if (!q || !(q.flags & 0x8000)) throw new Error("not a DNS response");
  const view = new DataView(msg.buffer, msg.byteOffset, msg.byteLength);
  const qdcount = view.getUint16(4);
  const ancount = view.getUint16(6);
  let pos = q.end;
  for (let i = 1; i < qdcount; i++) pos = decodeName(msg, pos).end + 4; // more questions: rare, skipped
  const answers: string[] = [];
  const want = TYPE_CODE[type];
  for (let i = 0; i < ancount; i++) {
    pos = decodeName(msg, pos).end;
    if (pos + 10 > msg.length) throw new Error("truncated record");
    const rtype = view.getUint16(pos);
    const rdlength = view.getUint16(pos + 8);
    const start = pos + 10;
    if (start + rdlength > msg.length) throw new Error("truncated record data");
    if (rtype === want) answers.push(decodeRdata(type, msg, start, rdlength));
    pos = start + rdlength;
  }
  return { id: q.id, rcode: q.flags & 0x0f, truncated: (q.flags & 0x0200) !== 0, answers };
}

/** RDATA → text: addresses as text, names lower-case without the dot, MX "10 mail.example.com", TXT chunks joined. */
export function decodeRdata(type: RecordType, msg: Uint8Array, start: number, length: number): string {
  const data = msg.subarray(start, start + length);
  switch (type) {
    case "A":
      if (length !== 4) throw new Error("bad A record");
      return Array.from(data).join(".");
    case "AAAA": {
      if (length !== 16) throw new Error("bad AAAA record");
      const groups: string[] = [];
      for (let i = 0; i < 16; i += 2) groups.push(((data[i] << 8) | data[i + 1]).toString(16));
      return compressIPv6(groups);
    }
    case "CNAME":
    case "NS":
      return normaliseName(decodeName(msg, start).name); // names may point back into the message: use msg
    case "MX": {
      if (length < 3) throw new Error("bad MX record");
      return `${(data[0] << 8) | data[1]} ${normaliseName(decodeName(msg, start + 2).name)}`;
    }
    case "TXT": {
      // Join the bytes before decoding: a UTF-8 character may straddle two character-strings.
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < data.length; i += 1 + data[i]) chunks.push(data.subarray(i + 1, i + 1 + data[i]));
      return Buffer.concat(chunks).toString("utf8");
    }
  }
}

/** RFC 5952 text: the longest run (≥ 2) of zero groups becomes "::". */
function compressIPv6(groups: string[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  if (best < 0) return groups.join(":");
  return `${groups.slice(0, best).join(":")}::${groups.slice(best + bestLen).join(":")}`;
}
