// N http monitors at a 1-minute interval against a local target, written straight into a fresh data dir's database
// (creating 100 000 through the API would take longer than measuring them): a third tagged, one in eight in one of
// N/50 groups. Shared by bench:list-api and bench:list --direct (seedMonitors).
import type { Db } from "../../server/db/database";
import { openDatabase } from "../../server/db/open";

/**
 * N plain http monitors (ids 1..N in a fresh store) at a 1-minute interval, as a restart would find them: up for an
 * hour, so a run measures steady checks rather than every monitor's first one turning it from pending to up. One
 * multi-row insert per 500, on either engine. Shared by bench:monitors, bench:cluster and bench:storage.
 */
export async function insertUpMonitors(db: Db, n: number, settingsOf: (i: number) => Record<string, unknown>): Promise<void> {
  const now = Date.now();
  for (let from = 1; from <= n; from += 500) {
    const chunk = [];
    for (let i = from; i <= Math.min(n, from + 499); i++) {
      chunk.push({ name: `bench ${i}`, settings: settingsOf(i), intervalSeconds: 60, timeoutMs: 10_000, retries: 1, status: "up" as const, statusChangedAt: now - 3_600_000, createdAt: now, updatedAt: now });
    }
    await db.orm.insert(db.t.monitors).values(chunk);
  }
}

export const SEED_WORDS = ["shop", "api", "blog", "mail", "auth", "cdn", "search", "billing", "status", "admin"];
const TAGS = ["prod", "staging", "env:eu", "env:us", "db", "edge"];

export async function seedMonitors(dataDir: string, n: number, targetPort: number): Promise<void> {
  const db = await openDatabase(`${dataDir}/vigil.db`);
  try {
    const now = Date.now();
    const groups = Math.max(1, Math.floor(n / 50));
    for (let g = 1; g <= groups; g += 500) {
      const chunk = [];
      for (let i = g; i <= Math.min(groups, g + 499); i++) chunk.push({ name: `group ${i}`, type: "group" as const, settings: {}, intervalSeconds: 60, timeoutMs: 10_000, retries: 0, status: "up" as const, createdAt: now, updatedAt: now });
      await db.orm.insert(db.t.monitors).values(chunk);
    }
    for (let from = 1; from <= n; from += 500) {
      const chunk = [];
      for (let i = from; i <= Math.min(n, from + 499); i++) {
        chunk.push({
          name: `${SEED_WORDS[i % SEED_WORDS.length]} ${i}`,
          settings: { url: `http://127.0.0.1:${targetPort}/m/${i}` },
          intervalSeconds: 60,
          timeoutMs: 10_000,
          retries: 1,
          status: "up" as const,
          statusChangedAt: now - 3_600_000,
          tags: i % 3 === 0 ? [TAGS[i % TAGS.length]!] : [],
          parentId: i % 8 === 0 ? (i % groups) + 1 : null,
          createdAt: now,
          updatedAt: now,
        });
      }
      await db.orm.insert(db.t.monitors).values(chunk);
    }
  } finally {
    await db.close();
  }
}
