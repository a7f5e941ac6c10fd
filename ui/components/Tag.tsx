// Monitor tags: "name" or "name:value" (as Uptime Kuma has them). A tag name may have a colour chosen for it (GET
// /api/tags); otherwise it is drawn in a colour derived from its name (the same tag is the same colour on every page
// and for every user, with nothing to configure).
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, type CSSProperties } from "react";
import { splitTag, tagKey } from "../api/tags";
import { ensureTagColors, tagColors } from "../state/tagColors";

/** Light background, dark text and ring classes; enough contrast for WCAG AA on each. */
const PALETTE = [
  "bg-sky-50 text-sky-800 ring-sky-200",
  "bg-emerald-50 text-emerald-800 ring-emerald-200",
  "bg-amber-50 text-amber-800 ring-amber-200",
  "bg-rose-50 text-rose-800 ring-rose-200",
  "bg-violet-50 text-violet-800 ring-violet-200",
  "bg-teal-50 text-teal-800 ring-teal-200",
  "bg-orange-50 text-orange-800 ring-orange-200",
  "bg-fuchsia-50 text-fuchsia-800 ring-fuchsia-200",
  "bg-lime-50 text-lime-800 ring-lime-200",
  "bg-indigo-50 text-indigo-800 ring-indigo-200",
] as const;

/** The palette entry of a tag name (case-insensitive: "Prod" and "prod" are one tag). FNV-1a over the lower-cased name. */
export function tagColor(tag: string): string {
  let h = 0x811c9dc5;
  for (const ch of tagKey(tag)) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return PALETTE[h % PALETTE.length];
}

/** Dark or white text on a colour, whichever reads better (WCAG relative luminance). */
export function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with white (1.05 / (L + 0.05)) against contrast with slate-900 (L ≈ 0.012).
  return 1.05 / (lum + 0.05) >= (lum + 0.05) / 0.062 ? "#ffffff" : "#0f172a";
}

/**
 * A tag's look: its chosen colour as an inline style (solid, with readable text), or the derived palette classes.
 * Reading it subscribes the component to the colours (call useSignals in it).
 */
export function useTagLook(tag: string): { className: string; style?: CSSProperties } {
  useEffect(ensureTagColors, []);
  const hex = tagColors.value.get(tagKey(tag));
  if (!hex) return { className: tagColor(tag) };
  return { className: "ring-black/10", style: { backgroundColor: hex, color: textOn(hex) } };
}

/** The tag's name and, when it has one, its value ("env: prod"). */
export function TagText({ tag }: { tag: string }) {
  const { name, value } = splitTag(tag);
  if (value === null) return <span className="truncate">{tag}</span>;
  return (
    <span className="truncate">
      <span data-testid="tag-name">{name}</span>
      {": "}
      <span className="font-normal" data-testid="tag-value">{value}</span>
    </span>
  );
}

export function TagChip({ tag, onRemove, removeLabel }: { tag: string; onRemove?: () => void; removeLabel?: string }) {
  useSignals();
  const look = useTagLook(tag);
  return (
    <span
      className={`inline-flex max-w-[12rem] items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${look.className}`}
      style={look.style}
      data-testid="tag"
      data-tag={tag}
      title={tag}
    >
      <TagText tag={tag} />
      {onRemove && (
        <button type="button" onClick={onRemove} aria-label={removeLabel} className="-mr-1 rounded-full px-1 leading-none hover:bg-black/10">
          ×
        </button>
      )}
    </span>
  );
}
