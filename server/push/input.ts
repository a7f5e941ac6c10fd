// Checking a browser's PushSubscription before it is kept: an https endpoint (the push service's; Web Push is https
// only), allowed by the address policy, and keys that payloads can actually be encrypted to.
import { createPublicKey } from "node:crypto";
import { badRequest } from "../http/errors";
import { literalHostProblem, type TargetPolicy } from "../net/targets";
import { PUSH_ENDPOINT_MAX, PUSH_LABEL_MAX, type PushSubscriptionInput } from "./public";

export interface ValidSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  label: string;
}

export interface SubscriptionRules {
  policy: TargetPolicy;
  /** Tests only: endpoints may be http://127.0.0.1 (a local push service without TLS). */
  allowLoopbackHttp?: boolean;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** base64url text (padding tolerated, dropped) decoding to exactly `size` bytes, or null. */
function base64url(value: string, size: number): { text: string; bytes: Buffer } | null {
  if (!BASE64URL.test(value)) return null;
  const text = value.replace(/=+$/, "");
  const bytes = Buffer.from(text, "base64url");
  return bytes.length === size ? { text, bytes } : null;
}

/** Whether 65 bytes are an uncompressed point on P-256 (the curve Web Push encrypts with). */
function onCurve(point: Buffer): boolean {
  if (point[0] !== 4) return false;
  try {
    createPublicKey({ key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, format: "jwk" });
    return true;
  } catch {
    return false;
  }
}

/** "Chrome on Android" as sent, or the User-Agent shortened; one line. */
export function deviceLabel(label: string | undefined, userAgent: string | null): string {
  const text = (label ?? "").replace(CONTROL, " ").trim() || (userAgent ?? "").replace(CONTROL, " ").trim() || "Browser";
  return Array.from(text).slice(0, PUSH_LABEL_MAX).join("");
}

export function validSubscription(input: PushSubscriptionInput, userAgent: string | null, rules: SubscriptionRules): ValidSubscription {
  const endpoint = input.endpoint.trim();
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw badRequest("PUSH_ENDPOINT_INVALID", "endpoint must be the push service's https URL from the browser's PushSubscription");
  }
  if (endpoint.length > PUSH_ENDPOINT_MAX) throw badRequest("PUSH_ENDPOINT_INVALID", `endpoint must be at most ${PUSH_ENDPOINT_MAX} characters`);
  const loopbackHttp = rules.allowLoopbackHttp === true && url.protocol === "http:" && url.hostname === "127.0.0.1";
  if (url.protocol !== "https:" && !loopbackHttp) throw badRequest("PUSH_ENDPOINT_INVALID", "endpoint must be an https URL (push services are reached over TLS)");
  if (url.username || url.password) throw badRequest("PUSH_ENDPOINT_INVALID", "endpoint must not contain credentials");
  const problem = literalHostProblem(endpoint, rules.policy);
  if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
  const p256dh = base64url(input.keys.p256dh, 65);
  if (!p256dh || !onCurve(p256dh.bytes)) throw badRequest("PUSH_KEYS_INVALID", "keys.p256dh must be the browser's P-256 public key (65 bytes, base64url)");
  const auth = base64url(input.keys.auth, 16);
  if (!auth) throw badRequest("PUSH_KEYS_INVALID", "keys.auth must be the browser's authentication secret (16 bytes, base64url)");
  return { endpoint, p256dh: p256dh.text, auth: auth.text, label: deviceLabel(input.label, userAgent) };
}
