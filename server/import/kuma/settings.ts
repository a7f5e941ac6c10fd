// Kuma's settings → Vigil's. The instance time zone becomes the zone Vigil writes times in (notification messages,
// subscriber mails, feeds: the "notifications" setting's timeZone). The heartbeat retention and a few others are
// start-up options in Vigil (flags), which an import cannot set: the plan says which flag to give. The rest have no
// equivalent and are listed as such. Values are shown only for settings that hold no secret.
import { eq } from "drizzle-orm";
import { first } from "../../db/database";
import { NAMES, note } from "./notes";
import type { KumaSection, Note, PlanItem } from "./section";
import { isTimeZone, json, str } from "./section-helpers";

const KIND = "setting";
const SETTINGS_KEY = "notifications";

/** Kuma's own bookkeeping and secrets: not settings a person chose, so not listed. */
const INTERNAL = new Set(["database_version", "databasePatchedFiles", "migrateAggregateTableState", "jwtSecret", "initServerTimezone", "disableAuth"]);

/** What to do instead, for settings Vigil has as a start-up option or not at all. */
const ADVICE: Record<string, (value: unknown) => Note> = {
  keepDataPeriodDays: (v) => {
    const days = Number(v);
    if (!Number.isFinite(days) || days <= 0) return note("setting.keepForever", { flag: 365 });
    return note("setting.keepDays", { days, flag: Math.min(Math.max(Math.round(days), 1), 365) });
  },
  primaryBaseURL: () => note("setting.publicUrl"),
  trustProxy: () => note("setting.trustProxy"),
  steamAPIKey: () => note("setting.steam"),
};

export const settingsSection: KumaSection = {
  kind: KIND,

  async plan(source) {
    const items: PlanItem[] = [];
    for (const row of source.rows("setting")) {
      const key = str(row.key);
      if (!key || INTERNAL.has(key)) continue;
      const value = json<unknown>(row.value, row.value);
      if (key === "serverTimezone") {
        const zone = str(value);
        items.push(
          isTimeZone(zone)
            ? { kind: KIND, sourceId: key, name: NAMES.timeZone, nameCode: "timeZone", action: "update", notes: [note("setting.timeZone", { zone })] }
            : { kind: KIND, sourceId: key, name: NAMES.timeZone, nameCode: "timeZone", action: "skip", notes: [note("setting.timeZoneUnknown", { zone })] },
        );
        continue;
      }
      const advice = ADVICE[key];
      items.push({ kind: KIND, sourceId: key, name: key, action: "skip", notes: [advice ? advice(value) : note("setting.none")] });
    }
    return items;
  },

  async apply(source, items, { tx, db }) {
    if (!items.some((i) => i.kind === KIND && i.sourceId === "serverTimezone" && i.action !== "skip")) return;
    const row = source.rows("setting").find((r) => r.key === "serverTimezone");
    const zone = str(json<unknown>(row?.value, row?.value));
    if (!isTimeZone(zone)) throw new Error("Kuma's time zone no longer passes the check it passed in the plan");
    const { settings } = db.t;
    const raw = (await first(tx.select().from(settings).where(eq(settings.key, SETTINGS_KEY))))?.value;
    // Only the zone changes: the rest of the stored value (channels, language) stays as it is.
    const value = JSON.stringify({ ...(raw ? (JSON.parse(raw) as object) : {}), timeZone: zone });
    await tx.insert(settings).values({ key: SETTINGS_KEY, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
  },
};
