// Tags as the API shows them. Monitors keep tags as text: "env" or "env:prod" (a name and, as in Uptime Kuma, a
// value). A tag name may have a colour (table tag_styles); without one the UI derives a colour from the name.
// Pure functions only: the UI imports this module.

export interface PublicTag {
  /** The name as the first monitor carrying it spells it (tags are one whatever their case). */
  name: string;
  /** "#rrggbb", or null when none was chosen. */
  color: string | null;
  /** How many monitors carry the tag, whatever its value. */
  monitors: number;
}

export const TAG_COLOR_PATTERN = "^#[0-9a-fA-F]{6}$";

/** "env:prod" → { name: "env", value: "prod" }; "env" → { name: "env", value: null }. The first colon splits. */
export function splitTag(tag: string): { name: string; value: string | null } {
  const at = tag.indexOf(":");
  if (at < 0) return { name: tag.trim(), value: null };
  const value = tag.slice(at + 1).trim();
  return { name: tag.slice(0, at).trim(), value: value === "" ? null : value };
}

/** The case-insensitive key of a tag's name. */
export const tagKey = (tag: string) => splitTag(tag).name.toLowerCase();
