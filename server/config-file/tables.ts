import { integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Objects a configuration file manages (server/config-file/): the file's stable key of each, the object it is, and a
 * hash of what the last apply wrote, so the UI can mark managed objects and `plan` can tell drift (an edit made since).
 */
export const configLinks = sqliteTable(
  "config_links",
  {
    /** monitor, group, tag, channel, status_page, maintenance */
    kind: text("kind").notNull(),
    /** The key the file gives the object (unique per kind). */
    key: text("key").notNull(),
    /** The object's id (a tag's name for tags). */
    objectId: text("object_id").notNull(),
    /** sha256 of the object as the last apply wrote it (its file form). */
    appliedHash: text("applied_hash").notNull(),
    appliedAt: integer("applied_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] }), uniqueIndex("config_links_object").on(t.kind, t.objectId)],
);
