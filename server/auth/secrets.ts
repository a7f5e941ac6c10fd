import { createHash, randomBytes } from "node:crypto";

/**
 * A registration token, an invite, an API token (shown once) or an agent credential: 256 random bits with a readable
 * prefix that says what kind of secret it is (for people, and for secret scanners).
 */
export function newSecret(prefix: "vgl_reg" | "vgl_agent" | "vgl_inv" | "vgl_api"): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

/**
 * The random part of a secret, as a regex source: 43 base64url characters, which may begin with "-" or "_" (so
 * `\w+` does not match every secret). For tests and anything that finds secrets in text.
 */
export const SECRET_BODY = "[A-Za-z0-9_-]{43}";

/** Secrets are stored as their sha256: they are random, so a slow password hash would add nothing. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
