// A fieldset of checkboxes over named things, as the pickers of channels, people and schedules show them.
import type { ReactNode } from "react";

/** One choice: its name and a line under it. */
export interface CheckItem {
  id: number;
  name: string;
  detail?: ReactNode;
}

/**
 * Checkboxes over named things (channels, people, schedules), two columns from the small breakpoint: `{prefix}-{id}`
 * each; `empty` (test id `{prefix}-empty` unless given) when there is nothing to choose.
 */
export function CheckList({ items, value, onChange, prefix, legend, hint, empty, emptyTestId }: { items: CheckItem[]; value: number[]; onChange: (ids: number[]) => void; prefix: string; legend: string; hint: string; empty: ReactNode; emptyTestId?: string }) {
  const chosen = new Set(value);
  return (
    <fieldset className="min-w-0 space-y-2">
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <p className="text-xs text-slate-500">{hint}</p>
      {items.length === 0 ? (
        <p data-testid={emptyTestId ?? `${prefix}-empty`} className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600">
          {empty}
        </p>
      ) : (
        <div className="grid gap-1 sm:grid-cols-2">
          {items.map((item) => (
            <label key={item.id} className="flex min-w-0 cursor-pointer items-center gap-2.5 rounded-lg px-2 py-1.5 ring-1 ring-inset ring-slate-200 hover:bg-slate-50">
              <input
                type="checkbox"
                checked={chosen.has(item.id)}
                onChange={(e) => onChange(e.target.checked ? [...value, item.id] : value.filter((id) => id !== item.id))}
                data-testid={`${prefix}-${item.id}`}
                className="size-4 shrink-0 accent-indigo-600"
              />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm text-slate-800">{item.name}</span>
                {item.detail && <span className="block truncate text-xs text-slate-500">{item.detail}</span>}
              </span>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
