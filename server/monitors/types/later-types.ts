// The later check types as the scheduler runs them (settings-adapter.ts over each module in settings-registry.ts).
// Server only: the agent never imports this, keeping database, broker and browser clients out of it.
import type { SettingsTypeName } from "../public";
import type { CheckType } from "./check-type";
import { settingsCheckType } from "./settings-adapter";
import { SETTINGS_TYPES } from "./settings-registry";

export function laterCheckTypes(): Record<SettingsTypeName, CheckType> {
  return Object.fromEntries(Object.entries(SETTINGS_TYPES).map(([name, module]) => [name, settingsCheckType(module)])) as Record<SettingsTypeName, CheckType>;
}
