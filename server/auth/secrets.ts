import { createHash, randomBytes } from "node:crypto";

/** A registration token, an invite (both shown once) or an agent credential: 256 random bits with a readable prefix. */
export function newSecret(prefix: "vgl_reg" | "vgl_agent" | "vgl_inv"): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

/** Secrets are stored as their sha256: they are random, so a slow password hash would add nothing. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
