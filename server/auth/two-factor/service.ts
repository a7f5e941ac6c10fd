// Two-factor sign-in with TOTP (RFC 6238 through otpauth: SHA-1, 6 digits, 30 s, the form every authenticator app
// reads), ten single-use recovery codes, and the instance's "everyone must use it" policy. A code is accepted once
// (its time step is remembered) and within one step of the clock either way; wrong codes are limited like passwords.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { first, type Db } from "../../db/database";
import type { UserRow } from "../../db/schema";
import { conflict, HttpError } from "../../http/errors";

const PERIOD_S = 30;
const RECOVERY_CODES = 10;
const REQUIRED_KEY = "auth.two_factor_required";
/** The policy is read at most this often per process (another node's change shows within it). */
const POLICY_TTL_MS = 5_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
/** "abcd-efgh-ijkl": 60 bits from an alphabet without look-alikes, easy to type from paper. */
function recoveryCode(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}
const normaliseRecovery = (code: string) => code.trim().toLowerCase().replace(/\s+/g, "");

export const codeRequired = () => new HttpError(403, "TWO_FACTOR_CODE_REQUIRED", "Enter a code from your authenticator app");
/**
 * A wrong code: 401 while signing in (no session yet); 400 — a wrong field — where a signed-in user confirms a change,
 * which must not read as "your session ended".
 */
export const wrongCode = (status: 400 | 401 = 400) => new HttpError(status, "TWO_FACTOR_WRONG_CODE", "That code is not right (or was used already)");

export interface TwoFactorStatus {
  enabled: boolean;
  /** Recovery codes not used yet. */
  recoveryCodesLeft: number;
  /** An admin requires two-factor sign-in of everyone. */
  required: boolean;
}

export function createTwoFactor(db: Db, now: () => number = Date.now) {
  const { orm } = db;
  const { userTotp, recoveryCodes, users, settings, usedChallenges } = db.t;
  let policy: { value: boolean; at: number } | null = null;

  const totpFor = (user: Pick<UserRow, "username">, secret: string) =>
    new TOTP({ issuer: "Vigil", label: user.username, secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: PERIOD_S });

  /** The step of a valid, unused code, or null. */
  function acceptedStep(user: Pick<UserRow, "username">, secret: string, lastStep: number, code: string): number | null {
    const token = code.replace(/\s+/g, "");
    if (!/^\d{6}$/.test(token)) return null;
    const at = now();
    const delta = totpFor(user, secret).validate({ token, timestamp: at, window: 1 });
    if (delta === null) return null;
    const step = Math.floor(at / 1000 / PERIOD_S) + delta;
    return step > lastStep ? step : null;
  }

  async function required(): Promise<boolean> {
    const at = now();
    if (policy && at - policy.at < POLICY_TTL_MS) return policy.value;
    const row = await first(orm.select({ value: settings.value }).from(settings).where(eq(settings.key, REQUIRED_KEY)));
    policy = { value: row?.value === "true", at };
    return policy.value;
  }

  return {
    required,
    /** The cached policy, for the per-request check (refreshed in the background once stale). */
    requiredNow: () => {
      if (!policy || now() - policy.at >= POLICY_TTL_MS) void required().catch(() => {});
      return policy?.value ?? false;
    },

    async setRequired(value: boolean): Promise<void> {
      await orm.insert(settings).values({ key: REQUIRED_KEY, value: String(value) }).onConflictDoUpdate({ target: settings.key, set: { value: String(value) } });
      policy = { value, at: now() };
    },

    async status(user: UserRow): Promise<TwoFactorStatus> {
      const left = user.twoFactorAt === null ? 0 : Number((await first(orm.select({ n: sql<number>`count(*)` }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)))))?.n ?? 0);
      return { enabled: user.twoFactorAt !== null, recoveryCodesLeft: left, required: await required() };
    },

    /** Starts an enrolment: a new secret (replacing one not confirmed), its otpauth:// URI and that URI as a QR code. */
    async setup(user: UserRow): Promise<{ secret: string; uri: string; qrSvg: string }> {
      if (user.twoFactorAt !== null) throw conflict("TWO_FACTOR_ALREADY_ON", "Two-factor sign-in is on already: turn it off first to set up another device");
      const secret = new Secret({ size: 20 }).base32;
      await orm.insert(userTotp).values({ userId: user.id, secret, lastStep: 0, createdAt: now() }).onConflictDoUpdate({ target: userTotp.userId, set: { secret, lastStep: 0, createdAt: now() } });
      const uri = totpFor(user, secret).toString();
      return { secret, uri, qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1 }) };
    },

    /** Confirms the enrolment with a first code: two-factor is on, and here are the recovery codes (shown once). */
    async enable(user: UserRow, code: string): Promise<string[]> {
      if (user.twoFactorAt !== null) throw conflict("TWO_FACTOR_ALREADY_ON", "Two-factor sign-in is on already");
      const row = await first(orm.select().from(userTotp).where(eq(userTotp.userId, user.id)));
      if (!row) throw conflict("TWO_FACTOR_NOT_SET_UP", "Set up two-factor sign-in first");
      const step = acceptedStep(user, row.secret, row.lastStep, code);
      if (step === null) throw wrongCode();
      const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
      await db.tx(async (tx) => {
        await tx.update(userTotp).set({ lastStep: step }).where(eq(userTotp.userId, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId: user.id, codeHash: sha256(normaliseRecovery(c)) })));
        await tx.update(users).set({ twoFactorAt: now(), updatedAt: now() }).where(eq(users.id, user.id));
      });
      return codes;
    },

    /**
     * Checks a code (or, when allowed, a recovery code, spent here) of a user with two-factor on; a code is good once.
     * False for anything else: the caller counts the failure.
     */
    async verify(user: UserRow, code: string, { recovery = false } = {}): Promise<boolean> {
      if (user.twoFactorAt === null || !code) return false;
      const row = await first(orm.select().from(userTotp).where(eq(userTotp.userId, user.id)));
      if (!row) return false;
      const step = acceptedStep(user, row.secret, row.lastStep, code);
      if (step !== null) {
        // Conditional: two requests with the same code at once, only one wins.
        const won = await orm.update(userTotp).set({ lastStep: step }).where(and(eq(userTotp.userId, user.id), sql`${userTotp.lastStep} < ${step}`)).returning({ id: userTotp.userId });
        return won.length > 0;
      }
      if (!recovery) return false;
      const spent = await orm
        .update(recoveryCodes)
        .set({ usedAt: now() })
        .where(and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, sha256(normaliseRecovery(code))), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return spent.length > 0;
    },

    /** Whether a sign-in challenge (its `jti`) has produced a session already. */
    async challengeSpent(jti: string): Promise<boolean> {
      return (await first(orm.select({ jti: usedChallenges.jti }).from(usedChallenges).where(eq(usedChallenges.jti, jti)))) !== undefined;
    },

    /**
     * Marks a sign-in challenge as used, until `expiresAt` (no sooner than its own expiry; wall-clock ms, as the
     * token's is checked): false when another request used it first. Those past their time are forgotten here.
     */
    async spendChallenge(jti: string, expiresAt: number): Promise<boolean> {
      await orm.delete(usedChallenges).where(lt(usedChallenges.expiresAt, Date.now()));
      const won = await orm.insert(usedChallenges).values({ jti, expiresAt }).onConflictDoNothing().returning({ jti: usedChallenges.jti });
      return won.length > 0;
    },

    /** Turns two-factor off (by the user, with a code; or reset by an admin): the secret and codes are forgotten. */
    async disable(userId: number): Promise<void> {
      await db.tx(async (tx) => {
        await tx.delete(userTotp).where(eq(userTotp.userId, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.update(users).set({ twoFactorAt: null, updatedAt: now() }).where(eq(users.id, userId));
      });
    },

    /** For tests: the code an authenticator would show now for a user's secret. */
    codeFor: (user: Pick<UserRow, "username">, secret: string, at = now()) => totpFor(user, secret).generate({ timestamp: at }),
  };
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;
