import { createHash, randomBytes } from "node:crypto";

/**
 * A registration token, an invite, an API token (shown once) or an agent credential: 256 random bits with a readable
 * prefix that says what kind of secret it is (for people, and for secret scanners).
 */
export function newSecret(prefix: "vgl_reg" | "vgl_agent" | "vgl_inv" | "vgl_api"): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

/** Secrets are stored as their sha256: they are random, so a slow password hash would add nothing. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
