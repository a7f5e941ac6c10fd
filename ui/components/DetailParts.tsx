// Small pieces the monitor and agent detail pages share: a labelled fact, and the chart's range tabs.
import type { ReactNode } from "react";

/** One fact of a definition list: label above value. */
export function Fact({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-400">{label}</dt>
      <dd data-testid={testId} className="mt-1 break-words text-sm text-slate-800">
        {children}
      </dd>
    </div>
  );
}

/** A chart's time ranges as tabs; `testIdPrefix` + range names each one (`chart-range-24h`). */
export function RangeTabs<R extends string>({
  ranges,
  range,
  onChange,
  label,
  name,
  testIdPrefix,
}: {
  ranges: readonly R[];
  range: R;
  onChange: (r: R) => void;
  label: string;
  name: (r: R) => string;
  testIdPrefix: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="inline-flex rounded-lg bg-slate-100 p-0.5">
      {ranges.map((r) => (
        <button
          key={r}
          type="button"
          role="tab"
          aria-selected={range === r}
          onClick={() => onChange(r)}
          data-testid={`${testIdPrefix}${r}`}
          className={`cursor-pointer rounded-md px-3 py-1 text-sm font-medium transition-colors ${
            range === r ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-200" : "text-slate-500 hover:text-slate-800"
          }`}
        >
          {name(r)}
        </button>
      ))}
    </div>
  );
}
