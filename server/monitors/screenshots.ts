// Browser checks' failure screenshots (check_screenshots): kept off the check loop — save() queues the bytes and
// returns at once; one insert runs at a time, each followed by trimming that monitor to its latest few. The raw
// retention prunes them with the check results (history.ts).
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { silentLogger, type Logger } from "../log";

/** Screenshots kept per monitor (the latest ones). */
export const SCREENSHOTS_KEPT = 20;
/** A larger image is refused (a 1280×720 PNG is far smaller; a huge one would bloat the table). */
export const SCREENSHOT_MAX_BYTES = 2 * 1024 * 1024;
/** Screenshots waiting for their insert at most: beyond it (the database stalled) new ones are dropped. */
const MAX_QUEUED = 50;

export interface ScreenshotInfo {
  time: number;
  error: string | null;
}

interface Pending extends ScreenshotInfo {
  monitorId: number;
  png: Uint8Array;
}

export function createScreenshots(db: Db, options: { log?: Logger; keep?: number } = {}) {
  const log = options.log ?? silentLogger;
  const keep = options.keep ?? SCREENSHOTS_KEPT;
  const queue: Pending[] = [];
  let draining: Promise<void> | null = null;

  async function write(p: Pending) {
    // A monitor deleted since its check: nothing is written (rather than a foreign key error). A second screenshot
    // at the same start time (cannot happen: one per check) keeps the first.
    await db.exec(
      sql`INSERT INTO check_screenshots (monitor_id, time, error, png)
          SELECT ${p.monitorId}, ${p.time}, ${p.error}, ${Buffer.from(p.png.buffer, p.png.byteOffset, p.png.byteLength)}
          WHERE EXISTS (SELECT 1 FROM monitors WHERE id = ${p.monitorId}) ON CONFLICT DO NOTHING`,
    );
    await db.exec(
      sql`DELETE FROM check_screenshots WHERE monitor_id = ${p.monitorId} AND time < (
            SELECT min(time) FROM (SELECT time FROM check_screenshots WHERE monitor_id = ${p.monitorId} ORDER BY time DESC LIMIT ${keep}) AS kept)`,
    );
  }

  function drain(): Promise<void> {
    draining ??= (async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          await write(next);
        } catch (e) {
          log.error("could not store a check's screenshot", { monitorId: next.monitorId, error: String((e as Error)?.message ?? e) });
        }
      }
      draining = null;
    })();
    return draining;
  }

  const flush = (): Promise<void> => draining ?? Promise.resolve();

  return {
    /** Queues a failed check's screenshot; never waits for the database. Returns false when refused (too large, queue full). */
    save(monitorId: number, time: number, error: string | null, png: Uint8Array): boolean {
      if (png.byteLength === 0 || png.byteLength > SCREENSHOT_MAX_BYTES) {
        log.warn("a check's screenshot was not kept: over the size limit", { monitorId, bytes: png.byteLength });
        return false;
      }
      if (queue.length >= MAX_QUEUED) {
        log.warn("a check's screenshot was not kept: too many waiting to be written", { monitorId });
        return false;
      }
      queue.push({ monitorId, time, error, png });
      void drain();
      return true;
    },

    /** Resolves once every queued screenshot is written (reads, stop). */
    flush,

    /** A monitor's screenshots, latest first (without the images). */
    async list(monitorId: number): Promise<ScreenshotInfo[]> {
      await flush();
      return db.rows<ScreenshotInfo>(sql`SELECT time, error FROM check_screenshots WHERE monitor_id = ${monitorId} ORDER BY time DESC`);
    },

    /** One screenshot's PNG, or null. */
    async get(monitorId: number, time: number): Promise<Uint8Array<ArrayBuffer> | null> {
      await flush();
      const [row] = await db.rows<{ png: Uint8Array }>(sql`SELECT png FROM check_screenshots WHERE monitor_id = ${monitorId} AND time = ${time}`);
      return row ? new Uint8Array(row.png) : null;
    },
  };
}

export type Screenshots = ReturnType<typeof createScreenshots>;
