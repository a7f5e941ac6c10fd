// Signed acknowledgement links: a JWT (HS256, jose — the library the sessions' plugin signs with) carrying one open
// problem's occurrence (target, condition, since), the channel whose message carried it, and an expiry. Signed with the
// session secret as the app's other short tokens are (a status page's unlock, a sign-in's second-factor challenge), each
// naming its `kind`: a session is never taken for a link, nor a link for a session (auth/session.ts refuses tokens
// with a kind). Nothing is stored: the alert's row says whether the occurrence is still open and unacknowledged.
import { errors, jwtVerify, SignJWT } from "jose";
import type { AlertKey } from "../notifications/alerts";
import { ACK_LINK_TTL_MS, ACK_TOKEN_MAX } from "./public";

/** What a link acknowledges: one occurrence of an open problem, sent through one channel. */
export interface AckRef extends AlertKey {
  since: number;
  channelId: number;
}

export type VerifiedLink = { ok: true; ref: AckRef; expiresAt: number } | { ok: false; reason: "invalid" | "expired" };

const KIND = "ack";
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);

export function createAckLinks({ secret, now = Date.now }: { secret: string; now?: () => number }) {
  const key = new TextEncoder().encode(secret);
  return {
    /** A token for the link `${publicUrl}/ack/${token}`, good for ACK_LINK_TTL_MS. */
    sign: (ref: AckRef): Promise<string> =>
      new SignJWT({ kind: KIND, tt: ref.targetType, ti: ref.targetId, c: ref.condition, s: ref.since, ch: ref.channelId })
        .setProtectedHeader({ alg: "HS256" })
        .setExpirationTime(Math.floor((now() + ACK_LINK_TTL_MS) / 1000))
        .sign(key),

    /** The occurrence a token names, or why it names none: forged, garbled or of another kind (invalid), or expired. */
    async verify(token: string): Promise<VerifiedLink> {
      if (!token || token.length > ACK_TOKEN_MAX) return { ok: false, reason: "invalid" };
      let payload: Record<string, unknown>;
      try {
        // The signature is checked before the expiry: a forged token is invalid, never "expired".
        ({ payload } = await jwtVerify(token, key, { algorithms: ["HS256"], currentDate: new Date(now()) }));
      } catch (e) {
        return { ok: false, reason: e instanceof errors.JWTExpired ? "expired" : "invalid" };
      }
      const { kind, tt, ti, c, s, ch, exp } = payload;
      if (kind !== KIND || (tt !== "monitor" && tt !== "agent") || !isInt(ti) || typeof c !== "string" || !c || !isInt(s) || !isInt(ch) || !isInt(exp)) {
        return { ok: false, reason: "invalid" };
      }
      return { ok: true, ref: { targetType: tt, targetId: ti, condition: c, since: s, channelId: ch }, expiresAt: exp * 1000 };
    },
  };
}

export type AckLinks = ReturnType<typeof createAckLinks>;
