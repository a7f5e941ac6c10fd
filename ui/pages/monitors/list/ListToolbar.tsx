import { memo, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FilterPills, type FilterOption } from "../../../components/FilterPills";
import { useSignals } from "@preact/signals-react/runtime";
import { EditorOnly } from "../../../components/guards";
import { TagText, useTagLook } from "../../../components/Tag";
import { STATUS_FILTERS } from "../model";
import { tagEditorOpen } from "../../../state/tagColors";
import { TagColors } from "./TagColors";
import { DEFAULT_DIR, isFiltered, SORT_KEYS, toggleTag, type ListView, type SortKey, type StatusCounts, type TagCount } from "../listModel";

// Above the list: the search box, the sort, the status pills with their counts, the tag chips, how many rows show.
// Every control writes the view into the URL (replacing the history entry), so a view can be shared as a link.

/** The search waits this long after the last key before it filters (and rewrites the URL). */
export const SEARCH_DEBOUNCE_MS = 150;
/** Tag chips shown before "+N more". */
const TAGS_SHOWN = 16;

const CONTROL =
  "rounded-lg border-0 bg-white py-1.5 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-indigo-600";

export interface ToolbarProps {
  view: ListView;
  setView: (next: ListView) => void;
  counts: StatusCounts;
  tags: TagCount[];
  shown: number;
  total: number;
}

export const ListToolbar = memo(function ListToolbar({ view, setView, counts, tags, shown, total }: ToolbarProps) {
  const { t } = useTranslation();
  const options: FilterOption[] = [
    { key: null, label: t("monitors.filter.all"), count: counts.all },
    ...STATUS_FILTERS.map((key) => ({ key, label: t(`monitors.status.${key}`), count: counts[key] })),
  ];
  return (
    <div className="space-y-3 border-b border-slate-200 px-4 py-3" data-testid="monitors-toolbar">
      <div className="flex flex-wrap items-center gap-2">
        <SearchBox view={view} setView={setView} />
        <SortControl view={view} setView={setView} />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <FilterPills base="/monitors" label={t("monitors.filter.label")} options={options} value={view.status} testId="monitors-filter" />
        <div className="flex items-center gap-3">
          {isFiltered(view) && (
            <button type="button" onClick={() => setView({ ...view, q: "", status: null, tags: [] })} className="text-xs font-medium text-indigo-600 hover:text-indigo-500" data-testid="monitors-clear">
              {t("monitors.list.clear")}
            </button>
          )}
          <p className="text-xs text-slate-500 tabular-nums" aria-live="polite" data-testid="monitors-shown">
            {t("monitors.list.shown", { shown: shown.toLocaleString(), total: total.toLocaleString() })}
          </p>
        </div>
      </div>
      {(tags.length > 0 || view.tags.length > 0) && <TagFilter view={view} setView={setView} tags={tags} />}
    </div>
  );
});

function SearchBox({ view, setView }: { view: ListView; setView: (next: ListView) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(view.q);
  // The URL is the truth: a change from elsewhere (clear filters, back, a link) replaces what the box shows, but the
  // box's own writes, arriving after the debounce, must not undo keys typed in between.
  const written = useRef(view.q);
  useEffect(() => {
    if (view.q !== written.current) {
      written.current = view.q;
      setText(view.q);
    }
  }, [view.q]);
  const latest = useRef({ view, setView });
  latest.current = { view, setView };
  useEffect(() => {
    if (text === latest.current.view.q) return;
    const timer = setTimeout(() => {
      written.current = text;
      latest.current.setView({ ...latest.current.view, q: text });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <div className="relative min-w-0 flex-1 basis-60">
      <svg viewBox="0 0 24 24" aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-slate-400" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
        <circle cx="11" cy="11" r="7" />
        <path d="m20 20-3.5-3.5" />
      </svg>
      <input
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && text) setText("");
        }}
        aria-label={t("monitors.list.search")}
        placeholder={t("monitors.list.searchPlaceholder")}
        maxLength={200}
        className={`${CONTROL} w-full pr-3 pl-8`}
        data-testid="monitors-search"
      />
    </div>
  );
}

function SortControl({ view, setView }: { view: ListView; setView: (next: ListView) => void }) {
  const { t } = useTranslation();
  const dirLabel = t(view.dir === "asc" ? "monitors.list.asc" : "monitors.list.desc");
  return (
    <div className="flex items-center gap-1.5">
      <label className="flex items-center gap-1.5 text-sm text-slate-600">
        <span className="whitespace-nowrap">{t("monitors.list.sort")}</span>
        <select
          value={view.sort ?? ""}
          onChange={(e) => {
            const key = (e.target.value || null) as SortKey | null;
            setView({ ...view, sort: key, dir: key ? DEFAULT_DIR[key] : "asc" });
          }}
          className={`${CONTROL} pr-8 pl-2.5`}
          data-testid="monitors-sort"
        >
          <option value="">{t("monitors.list.sortDefault")}</option>
          {SORT_KEYS.map((key) => (
            <option key={key} value={key}>
              {t(`monitors.list.sortBy.${key}`)}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={!view.sort}
        onClick={() => setView({ ...view, dir: view.dir === "asc" ? "desc" : "asc" })}
        aria-label={t("monitors.list.reverse", { dir: dirLabel })}
        title={t("monitors.list.reverse", { dir: dirLabel })}
        data-testid="monitors-sort-dir"
        data-dir={view.dir}
        className={`${CONTROL} px-2.5 font-medium text-slate-600 disabled:cursor-not-allowed disabled:opacity-50`}
      >
        <span aria-hidden="true">{view.dir === "asc" ? "↑" : "↓"}</span>
      </button>
    </div>
  );
}

function TagFilter({ view, setView, tags }: { view: ListView; setView: (next: ListView) => void; tags: TagCount[] }) {
  useSignals();
  const { t } = useTranslation();
  const editing = tagEditorOpen.value;
  const [all, setAll] = useState(false);
  const chosen = new Set(view.tags.map((tag) => tag.toLowerCase()));
  // Tags in the URL that no monitor has (any more) still show, chosen, so they can be taken out.
  const missing = view.tags.filter((tag) => !tags.some((c) => c.tag.toLowerCase() === tag.toLowerCase())).map((tag) => ({ tag, count: 0 }));
  const list = [...missing, ...tags];
  const visible = all ? list : list.filter((c, i) => i < TAGS_SHOWN || chosen.has(c.tag.toLowerCase()));
  const hidden = list.length - visible.length;
  return (
    <>
      <div role="group" aria-label={t("monitors.list.tagFilter")} className="flex flex-wrap items-center gap-1.5" data-testid="monitors-tags">
        <span className="mr-1 text-xs font-medium text-slate-500">{t("monitors.list.tags")}</span>
        {visible.map(({ tag, count }) => (
          <TagFilterChip key={tag.toLowerCase()} tag={tag} count={count} on={chosen.has(tag.toLowerCase())} onToggle={() => setView(toggleTag(view, tag))} />
        ))}
        {(hidden > 0 || all) && list.length > TAGS_SHOWN && (
          <button type="button" onClick={() => setAll((a) => !a)} className="text-xs font-medium text-indigo-600 hover:text-indigo-500" data-testid="monitors-tags-more">
            {all ? t("monitors.list.fewerTags") : t("monitors.list.moreTags", { count: hidden })}
          </button>
        )}
        <EditorOnly>
          <button type="button" onClick={() => (tagEditorOpen.value = !editing)} aria-expanded={editing} className="text-xs font-medium text-indigo-600 hover:text-indigo-500" data-testid="tag-colors-open">
            {t("monitors.tagColors.open")}
          </button>
        </EditorOnly>
      </div>
      {editing && <TagColors onClose={() => (tagEditorOpen.value = false)} />}
    </>
  );
}

function TagFilterChip({ tag, count, on, onToggle }: { tag: string; count: number; on: boolean; onToggle: () => void }) {
  useSignals();
  const look = useTagLook(tag);
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={onToggle}
      data-testid="monitors-tag-filter"
      data-tag={tag}
      style={look.style}
      className={`inline-flex max-w-[14rem] items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-inset transition ${look.className} ${
        on ? "ring-2 ring-indigo-600" : "ring-1 opacity-80 hover:opacity-100"
      }`}
    >
      {on && <span aria-hidden="true">✓</span>}
      <TagText tag={tag} />
      <span className="tabular-nums opacity-70">{count}</span>
    </button>
  );
}

/** The "nothing matches" message, with a way out. */
export function NoMatch({ view, onClear }: { view: ListView; onClear: () => void }) {
  const { t } = useTranslation();
  const onlyStatus = view.status !== null && view.q.trim() === "" && view.tags.length === 0;
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      <p data-testid="monitors-filter-empty" className="text-sm text-slate-500">
        {onlyStatus ? t("monitors.filter.empty") : t("monitors.list.noMatch")}
      </p>
      {isFiltered(view) && (
        <button type="button" onClick={onClear} className="text-sm font-medium text-indigo-600 hover:text-indigo-500" data-testid="monitors-clear-filters">
          {t("monitors.list.clear")}
        </button>
      )}
    </div>
  );
}
