// Kuma's settings → Vigil's. The instance time zone becomes the zone Vigil writes times in (notification messages,
// subscriber mails, feeds: the "notifications" setting's timeZone). The heartbeat retention and a few others are
// start-up options in Vigil (flags), which an import cannot set: the plan says which flag to give. The rest have no
// equivalent and are listed as such. Values are shown only for settings that hold no secret.
import { eq } from "drizzle-orm";
import { first } from "../../db/database";
import type { KumaSection, PlanItem } from "./section";
import { isTimeZone, json, str } from "./section-helpers";

const KIND = "setting";
const SETTINGS_KEY = "notifications";

/** Kuma's own bookkeeping and secrets: not settings a person chose, so not listed. */
const INTERNAL = new Set(["database_version", "databasePatchedFiles", "migrateAggregateTableState", "jwtSecret", "initServerTimezone", "disableAuth"]);

/** What to do instead, for settings Vigil has as a start-up option or not at all. */
const ADVICE: Record<string, (value: unknown) => string> = {
  keepDataPeriodDays: (v) => {
    const days = Number(v);
    const want = !Number.isFinite(days) || days <= 0 ? "forever" : `${days} days`;
    const flag = Number.isFinite(days) && days > 0 ? Math.min(Math.max(Math.round(days), 1), 365) : 365;
    return `Kuma kept heartbeats ${want}. Vigil keeps raw check results for --raw-retention-days (1-365, default 7) and hourly and daily summaries for 365 days: start Vigil with --raw-retention-days ${flag} (or VIGIL_RAW_RETENTION_DAYS=${flag}).`;
  },
  primaryBaseURL: () => "Start Vigil with --public-url set to the address people reach it at (VIGIL_PUBLIC_URL).",
  trustProxy: () => "Behind a reverse proxy, start Vigil with --trust-proxy true (VIGIL_TRUST_PROXY).",
  steamAPIKey: () => "Vigil has no Steam monitor, so the Steam API key has no use.",
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
            ? { kind: KIND, sourceId: key, name: "Time zone", action: "update", notes: [`Vigil writes times in messages, mails and feeds in ${zone}.`] }
            : { kind: KIND, sourceId: key, name: "Time zone", action: "skip", notes: [`"${zone}" is not a time zone Vigil knows.`] },
        );
        continue;
      }
      const advice = ADVICE[key];
      items.push({ kind: KIND, sourceId: key, name: key, action: "skip", notes: [advice ? advice(value) : "No equivalent in Vigil."] });
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
