// Picking monitors or agents from lists that stay quick with thousands: what is chosen on the left (in order, with
// move buttons, when the order matters), a search and at most TARGET_LIST_LIMIT checkboxes on the right.
//
// data-testids, after `prefix`: `-selected`, `-selected-{id}`, `-up-{id}`, `-down-{id}`, `-remove-{id}`, `-none`,
// `-search`, `-option-{id}` (the checkbox), `-empty`, `-no-match`, `-truncated`, `-total`, `-limit`.
import { useDeferredValue, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { searchTargets } from "../pages/notifications/model";
import { Button } from "./Button";
import { Card, CardHeader } from "./Card";
import { TextInput } from "./form";

/** A monitor or an agent as a picker shows it. */
export interface PickerItem {
  id: number;
  name: string;
  /** The monitor's target or the agent's host: for telling items apart. */
  detail: string;
}

export const toggleId = (ids: readonly number[], id: number, on: boolean): number[] => {
  const without = ids.filter((x) => x !== id);
  return on ? [...without, id] : without;
};

/** Moves the item at `index` one place up (-1) or down (+1); out of range leaves the list as it is. */
export function moveId(ids: readonly number[], index: number, delta: -1 | 1): number[] {
  const to = index + delta;
  if (index < 0 || index >= ids.length || to < 0 || to >= ids.length) return [...ids];
  const next = [...ids];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}

interface TargetPickerProps {
  prefix: string;
  title: string;
  hint: string;
  /** Headings of the chosen list: "On the page (3)", and what it says when empty. */
  selectedTitle: string;
  noneText: string;
  searchLabel: string;
  emptyText: string;
  items: PickerItem[];
  selected: number[];
  onChange: (ids: number[]) => void;
  error: string | undefined;
  /** The order is kept and can be changed (a status page's). */
  ordered?: boolean;
  /** At most this many, and what to say when reached. */
  max?: number;
  limitText?: string;
}

export function TargetPicker({ prefix, title, hint, selectedTitle, noneText, searchLabel, emptyText, items, selected, onChange, error, ordered = false, max = Infinity, limitText }: TargetPickerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const byId = useMemo(() => new Map(items.map((x) => [x.id, x])), [items]);
  const found = useMemo(() => searchTargets(items, deferredQuery, (x) => x.detail), [items, deferredQuery]);
  const chosen = useMemo(() => new Set(selected), [selected]);
  const full = selected.length >= max;
  const selectedHeading = useId();

  return (
    <Card data-testid={prefix}>
      <CardHeader title={title} description={hint} />
      <div className="grid gap-6 px-5 py-5 sm:px-6 lg:grid-cols-2">
        <div className="min-w-0">
          <h3 id={selectedHeading} className="text-sm font-medium text-slate-700">
            {selectedTitle}
          </h3>
          {error && <p className="mt-1 text-xs font-medium text-red-600">{error}</p>}
          {selected.length === 0 ? (
            <p data-testid={`${prefix}-none`} className="mt-2 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500">
              {noneText}
            </p>
          ) : (
            <ol aria-labelledby={selectedHeading} data-testid={`${prefix}-selected`} className="mt-2 max-h-[28rem] divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200">
              {selected.map((id, index) => {
                const item = byId.get(id);
                const name = item?.name ?? t("picker.deletedItem", { id });
                return (
                  <li key={id} data-testid={`${prefix}-selected-${id}`} className="flex items-center gap-2 px-3 py-2">
                    {ordered && <span className="w-6 shrink-0 text-right text-xs tabular-nums text-slate-400">{index + 1}</span>}
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-sm font-medium text-slate-800">{name}</span>
                      {item?.detail && <span className="block truncate text-xs text-slate-500">{item.detail}</span>}
                    </span>
                    {ordered && (
                      <>
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={index === 0}
                          onClick={() => onChange(moveId(selected, index, -1))}
                          aria-label={t("picker.moveUp", { name })}
                          title={t("picker.moveUp", { name })}
                          data-testid={`${prefix}-up-${id}`}
                        >
                          ↑
                        </Button>
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={index === selected.length - 1}
                          onClick={() => onChange(moveId(selected, index, 1))}
                          aria-label={t("picker.moveDown", { name })}
                          title={t("picker.moveDown", { name })}
                          data-testid={`${prefix}-down-${id}`}
                        >
                          ↓
                        </Button>
                      </>
                    )}
                    <Button
                      variant="dangerGhost"
                      size="sm"
                      onClick={() => onChange(toggleId(selected, id, false))}
                      aria-label={t("picker.remove", { name })}
                      title={t("picker.remove", { name })}
                      data-testid={`${prefix}-remove-${id}`}
                    >
                      ✕
                    </Button>
                  </li>
                );
              })}
            </ol>
          )}
        </div>

        <div className="min-w-0">
          <TextInput type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={searchLabel} aria-label={searchLabel} data-testid={`${prefix}-search`} />
          {full && limitText && (
            <p data-testid={`${prefix}-limit`} className="mt-2 text-xs font-medium text-amber-700">
              {limitText}
            </p>
          )}
          {items.length === 0 ? (
            <p data-testid={`${prefix}-empty`} className="px-4 py-6 text-center text-sm text-slate-500">
              {emptyText}
            </p>
          ) : found.matched === 0 ? (
            <p data-testid={`${prefix}-no-match`} className="px-4 py-6 text-center text-sm text-slate-500">
              {t("picker.noMatch", { query: deferredQuery.trim() })}
            </p>
          ) : (
            <>
              <ul className="mt-2 max-h-[28rem] divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200">
                {found.shown.map((x) => {
                  const on = chosen.has(x.id);
                  return (
                    <li key={x.id}>
                      <label className={`flex items-center gap-3 px-3 py-2 ${!on && full ? "cursor-not-allowed opacity-60" : "cursor-pointer hover:bg-slate-50"}`}>
                        <input
                          type="checkbox"
                          checked={on}
                          disabled={!on && full}
                          onChange={(e) => onChange(toggleId(selected, x.id, e.target.checked))}
                          data-testid={`${prefix}-option-${x.id}`}
                          className="size-4 shrink-0 cursor-pointer rounded border-slate-300 accent-indigo-600 disabled:cursor-not-allowed"
                        />
                        <span className="min-w-0 flex-1">
                          <span className="block truncate text-sm font-medium text-slate-800">{x.name}</span>
                          <span className="block truncate text-xs text-slate-500">{x.detail || t("common.dash")}</span>
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
              <p className="mt-2 text-xs text-slate-500">
                {found.matched > found.shown.length ? (
                  <span data-testid={`${prefix}-truncated`}>{t("picker.truncated", { shown: found.shown.length, total: found.matched })}</span>
                ) : (
                  <span data-testid={`${prefix}-total`}>{t("picker.total", { count: found.matched })}</span>
                )}
              </p>
            </>
          )}
        </div>
      </div>
    </Card>
  );
}
