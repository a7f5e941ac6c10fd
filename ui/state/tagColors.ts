import { signal } from "@preact/signals-react";
import { listTags, type PublicTag } from "../api/tags";

// The tag colours chosen (GET /api/tags), shared by every tag chip: loaded once per session, again after a change.

/** Lower-cased tag name → "#rrggbb". */
export const tagColors = signal<ReadonlyMap<string, string>>(new Map());
/** The whole list, for the colour editor. */
export const tagList = signal<PublicTag[] | null>(null);

/** Whether the colour editor is open (kept here: the list's toolbar may be built again while it is). */
export const tagEditorOpen = signal(false);

let loading: Promise<void> | null = null;

export function reloadTagColors(): Promise<void> {
  loading = listTags()
    .then(({ data }) => {
      tagList.value = data;
      tagColors.value = new Map(data.filter((x) => x.color).map((x) => [x.name.toLowerCase(), x.color!]));
    })
    .catch(() => {
      loading = null; // chips keep their derived colours; a later chip tries again
    });
  return loading;
}

/** Loads the colours unless they are loaded or loading. */
export function ensureTagColors(): void {
  if (!loading) void reloadTagColors();
}
