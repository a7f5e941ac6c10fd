// The later check types by name: each is one folder declaring its settings (settings-type.ts). Adding a type is one
// line here and its name in public.ts SETTINGS_TYPE_NAMES.
import type { SettingsTypeName } from "../public";
import { manualType } from "./manual/manual";
import type { AnySettingsType } from "./settings-type";

export const SETTINGS_TYPES: Record<SettingsTypeName, AnySettingsType> = {
  manual: manualType as unknown as AnySettingsType,
};
