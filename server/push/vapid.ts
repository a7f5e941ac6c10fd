// The server's VAPID key pair (RFC 8292): generated once, on first use, and kept in the settings table, so every node
// sharing the database signs with the same key and the browsers' subscriptions (made for its public key) stay valid
// across restarts. The private key is read here and handed only to the webpush provider: no reply or log carries it.
import { eq } from "drizzle-orm";
import webPush from "web-push";
import { first, type Db } from "../db/database";

export const VAPID_SETTING = "webpush_vapid";

export interface VapidKeys {
  /** base64url, the 65-byte uncompressed P-256 point (the browser's applicationServerKey). */
  publicKey: string;
  /** base64url, 32 bytes. */
  privateKey: string;
}

/**
 * The key pair, made when there is none. Race-safe across nodes: each inserts its own only if no row exists, then all
 * read back the one row that won.
 */
export async function loadVapidKeys(db: Db): Promise<VapidKeys> {
  const { settings } = db.t;
  const read = async () => (await first(db.orm.select({ value: settings.value }).from(settings).where(eq(settings.key, VAPID_SETTING))))?.value;
  let value = await read();
  if (value === undefined) {
    const { publicKey, privateKey } = webPush.generateVAPIDKeys();
    await db.orm.insert(settings).values({ key: VAPID_SETTING, value: JSON.stringify({ publicKey, privateKey }) }).onConflictDoNothing();
    value = await read();
  }
  const keys = JSON.parse(value!) as VapidKeys;
  if (typeof keys.publicKey !== "string" || typeof keys.privateKey !== "string") throw new Error(`settings.${VAPID_SETTING} is not a VAPID key pair`);
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}
