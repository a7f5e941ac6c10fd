// Monitor tags: free-form words, each drawn in a colour derived from its name (the same tag is the same colour on
// every page and for every user, with nothing to configure or store).

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

/** The palette entry of a tag (case-insensitive: "Prod" and "prod" are one tag). FNV-1a over the lower-cased name. */
export function tagColor(tag: string): string {
  let h = 0x811c9dc5;
  for (const ch of tag.toLowerCase()) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return PALETTE[h % PALETTE.length];
}

export function TagChip({ tag, onRemove, removeLabel }: { tag: string; onRemove?: () => void; removeLabel?: string }) {
  return (
    <span className={`inline-flex max-w-[12rem] items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tagColor(tag)}`} data-testid="tag">
      <span className="truncate">{tag}</span>
      {onRemove && (
        <button type="button" onClick={onRemove} aria-label={removeLabel} className="-mr-1 rounded-full px-1 leading-none hover:bg-black/10">
          ×
        </button>
      )}
    </span>
  );
}
