// Test support (not a test): a local push service on 127.0.0.1 that plays the browser's side too. Each fake device has
// its own P-256 key pair and auth secret; every message that arrives is decrypted here, independently of web-push,
// per RFC 8291 / RFC 8188 (ECDH, HKDF, AES-128-GCM with node:crypto), and its VAPID JWT (RFC 8292) is verified with
// jose against the key in the request's own header, which the tests compare with the server's.
import { createDecipheriv, createECDH, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { decodeProtectedHeader, importJWK, jwtVerify, type JWTPayload } from "jose";

export interface FakeDevice {
  name: string;
  /** The browser's PushSubscription.toJSON(), as the UI posts it. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export interface PushReceived {
  device: string;
  headers: Record<string, string>;
  /** The encrypted body's size in bytes. */
  size: number;
  /** The decrypted payload, parsed. */
  payload: Record<string, unknown>;
  /** The verified VAPID JWT's claims, its header's alg, and the `k=` public key the request carried. */
  claims: JWTPayload;
  alg: string;
  vapidKey: string;
}

export interface PushServiceFake {
  /** "http://127.0.0.1:<port>" */
  url: string;
  /** A new device subscribed at this push service. */
  device(name?: string): FakeDevice;
  received: PushReceived[];
  /** Requests that could not be decrypted or verified (the answer was 400), with why. */
  rejected: string[];
  /** How the service answers a device's message (default 201 Created). */
  answer(respond: (device: string) => Response): void;
  stop(): void;
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync("sha256", ikm, salt, info, length));

/** RFC 8291 §3.4 + RFC 8188 §2: one aes128gcm record, decrypted with the device's private key and auth secret. */
export function decryptPush(body: Buffer, device: { ecdh: ReturnType<typeof createECDH>; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const senderKey = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (record.length > rs) throw new Error(`more than one record (${record.length} > ${rs})`);
  const ecdhSecret = device.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), device.ecdh.getPublicKey(), senderKey]);
  const ikm = hkdf(device.auth, ecdhSecret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from("Content-Encoding: aes128gcm\0"), 16);
  const nonce = hkdf(salt, ikm, Buffer.from("Content-Encoding: nonce\0"), 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record's padding: a 0x02 delimiter, then zeros.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error("bad padding delimiter");
  return plain.subarray(0, end).toString("utf8");
}

/** Verifies `Authorization: vapid t=<jwt>, k=<key>` for the endpoint's origin; returns its claims and key. */
export async function verifyVapid(authorization: string, endpoint: string): Promise<{ claims: JWTPayload; alg: string; vapidKey: string }> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID authorization: ${authorization.slice(0, 20)}`);
  const [, jwt, vapidKey] = match as unknown as [string, string, string];
  const point = Buffer.from(vapidKey, "base64url");
  const key = await importJWK({ kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, "ES256");
  const { payload } = await jwtVerify(jwt, key, { algorithms: ["ES256"], audience: new URL(endpoint).origin, requiredClaims: ["exp", "sub"] });
  return { claims: payload, alg: decodeProtectedHeader(jwt).alg ?? "", vapidKey };
}

export function startPushService(): PushServiceFake {
  const devices = new Map<string, { name: string; ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  const received: PushReceived[] = [];
  const rejected: string[] = [];
  let respond: (device: string) => Response = () => new Response(null, { status: 201 });
  let origin = "";
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const device = devices.get(url.pathname.split("/").pop() ?? "");
      if (!device || request.method !== "POST") return new Response("no such subscription", { status: 404 });
      const body = Buffer.from(await request.arrayBuffer());
      try {
        if (request.headers.get("content-encoding") !== "aes128gcm") throw new Error(`content-encoding ${request.headers.get("content-encoding")}`);
        const payload = JSON.parse(decryptPush(body, device)) as Record<string, unknown>;
        const vapid = await verifyVapid(request.headers.get("authorization") ?? "", origin);
        received.push({ device: device.name, headers: Object.fromEntries(request.headers), size: body.length, payload, ...vapid });
      } catch (e) {
        rejected.push(`${device.name}: ${(e as Error).message}`);
        return new Response("bad request", { status: 400 });
      }
      return respond(device.name);
    },
  });
  const url = (origin = `http://127.0.0.1:${server.port}`);
  return {
    url,
    received,
    rejected,
    device(name = `device-${devices.size + 1}`) {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomUUID();
      devices.set(id, { name, ecdh, auth });
      return {
        name,
        subscription: { endpoint: `${url}/wpush/v2/${id}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } },
      };
    },
    answer(fn) {
      respond = fn;
    },
    stop: () => void server.stop(true),
  };
}
