import { Link, useSearch } from "wouter";

export interface FilterOption {
  /** The `?status=` value; null is "all". */
  key: string | null;
  label: string;
  count: number;
}

/** `base` with the current query string, `?status=` set to `key` (or removed for null) and every other parameter kept. */
export function statusHref(base: string, search: string, key: string | null): string {
  const params = new URLSearchParams(search);
  if (key) params.set("status", key);
  else params.delete("status");
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/**
 * A row of status filters with their counts. Each is a link (`/monitors?status=down`) so the view lives in the URL
 * and can be shared; it replaces the history entry rather than stacking one per click. The page's other parameters
 * (a search, a sort) are kept.
 */
export function FilterPills({ base, label, options, value, className = "", testId }: { base: string; label: string; options: FilterOption[]; value: string | null; className?: string; testId: string }) {
  const search = useSearch();
  return (
    <nav aria-label={label} className={`flex flex-wrap gap-1.5 ${className}`} data-testid={testId}>
      {options.map((o) => {
        const active = o.key === value;
        return (
          <Link
            key={o.key ?? "all"}
            href={statusHref(base, search, o.key)}
            replace
            aria-current={active ? "page" : undefined}
            data-testid={`${testId}-${o.key ?? "all"}`}
            className={`inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-xs font-medium ring-1 ring-inset transition ${
              active ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-600 ring-slate-200 hover:bg-slate-50"
            }`}
          >
            {o.label}
            <span className={`tabular-nums ${active ? "text-indigo-100" : "text-slate-400"}`}>{o.count}</span>
          </Link>
        );
      })}
    </nav>
  );
}
