// The manual type: Vigil checks nothing; an operator (the monitor page) or a script (POST /api/monitors/:id/manual)
// sets it up or down, and that state is recorded, shown and notified like any other (server/monitors/manual.ts).
// The scheduler never runs it (public.ts UNSCHEDULED_TYPES), so check() is never called on a clock.
import type { SettingsCheckType } from "../settings-type";
import { manualSettings } from "./settings";

export const manualType: SettingsCheckType<typeof manualSettings> = {
  type: "manual",
  schema: manualSettings,
  runsOnAgents: false,
  check: async () => ({ up: true, responseTime: null, error: null }),
  target: () => "",
};
