// Tag colours (tag_styles): one row per tag name. Names match without case, as tags on monitors do; a row keeps the
// spelling it was given. A colour outlives the last monitor carrying its tag (it comes back with the tag).
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { splitTag, type PublicTag } from "./public";

export function createTagStore(db: Db) {
  const { tagStyles } = db.t;
  const byKey = sql`lower(${tagStyles.name})`;

  async function colours(): Promise<Map<string, string>> {
    const rows = await db.orm.select().from(tagStyles);
    return new Map(rows.map((r) => [r.name.toLowerCase(), r.color]));
  }

  return {
    /** Every tag name on the monitors given, with its colour and how many of them carry it, by name. */
    async list(monitorTags: readonly (readonly string[])[]): Promise<PublicTag[]> {
      const styles = await colours();
      const found = new Map<string, PublicTag>();
      for (const tags of monitorTags) {
        const seen = new Set<string>();
        for (const tag of tags) {
          const { name } = splitTag(tag);
          const key = name.toLowerCase();
          if (!name || seen.has(key)) continue; // "env:a" and "env:b" on one monitor count it once
          seen.add(key);
          const entry = found.get(key);
          if (entry) entry.monitors += 1;
          else found.set(key, { name, color: styles.get(key) ?? null, monitors: 1 });
        }
      }
      return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
    },

    /** Sets a name's colour (replacing one kept under another spelling of it). */
    async setColor(name: string, color: string): Promise<void> {
      await db.tx(async (tx) => {
        await tx.delete(tagStyles).where(eq(byKey, name.toLowerCase()));
        await tx.insert(tagStyles).values({ name, color: color.toLowerCase() });
      });
    },

    /** Forgets a name's colour; false when it had none. */
    async clearColor(name: string): Promise<boolean> {
      const gone = await db.orm.delete(tagStyles).where(eq(byKey, name.toLowerCase())).returning({ name: tagStyles.name });
      return gone.length > 0;
    },
  };
}

export type TagStore = ReturnType<typeof createTagStore>;
