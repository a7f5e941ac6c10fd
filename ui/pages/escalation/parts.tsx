// Pieces the escalation list and the monitor and agent pages share: a policy's steps in words, and the moment of the
// next step as the rest of the app writes times (24-hour, the reader's zone, the zone spelled out on hover).
import { useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { EscalationPolicy } from "../../api/escalation";
import { formatWithZone } from "../../components/time";
import { phrasesOf } from "./model";

/** Names of what a step pages, by id; a person or schedule deleted since reads as its id. */
export interface StepNames {
  channels: ReadonlyMap<number, string>;
  people?: ReadonlyMap<number, string>;
  schedules?: ReadonlyMap<number, string>;
}

/**
 * "1. Ops Slack, alice, on call in Primary → after 10 min", "2. On-call phone → after 20 min", "3. CTO mail, again every
 * 30 min up to 3 times".
 */
export function StepWords({ policy, names, "data-testid": testId }: { policy: Pick<EscalationPolicy, "steps" | "repeatEveryMinutes" | "repeatLimit">; names: StepNames; "data-testid"?: string }) {
  const { t } = useTranslation();
  const name = (map: ReadonlyMap<number, string> | undefined, id: number) => map?.get(id) ?? t("picker.deletedItem", { id });
  return (
    <ol data-testid={testId} className="space-y-0.5 text-sm text-slate-700">
      {phrasesOf(policy).map((p) => {
        const whom = [
          ...p.channelIds.map((id) => name(names.channels, id)),
          ...p.userIds.map((id) => name(names.people, id)),
          ...p.scheduleIds.map((id) => t("escalation.words.onCall", { schedule: name(names.schedules, id) })),
        ].join(t("escalation.words.separator"));
        return (
          <li key={p.n} data-testid={testId && `${testId}-${p.n}`} className="break-words [overflow-wrap:anywhere]">
            {t("escalation.words.step", { n: p.n, channels: whom })}
            {p.after !== null && <span className="text-slate-500"> {t("escalation.words.after", { minutes: p.after })}</span>}
            {p.again && <span className="text-slate-500">{t("escalation.words.again", { minutes: p.again.every, count: p.again.count })}</span>}
          </li>
        );
      })}
    </ol>
  );
}

/** "03:12" today, "Nov 29, 03:12" another day: in the reader's zone, on the 24-hour clock as every time in the UI. */
export function useAtFormat() {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  return useMemo(() => {
    const time = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const dated = new Intl.DateTimeFormat(lang, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const day = (ms: number) => new Date(ms).toDateString();
    return {
      text: (at: number, now: number) => (day(at) === day(now) ? time.format(at) : dated.format(at)),
      title: (at: number) => formatWithZone(at, lang),
    };
  }, [lang]);
}

/** A person a step may page, and an on-call schedule with who holds it now (the form's pickers). */
export interface PersonOption {
  id: number;
  username: string;
}
export interface ScheduleOption {
  id: number;
  name: string;
  /** Who is on call now (null: nobody). */
  onCallNow: string | null;
}

/** Checkboxes over named things (people, schedules): `{prefix}-{id}` each; `empty` when there is nothing to choose. */
export function NamedPicker({ items, value, onChange, prefix, legend, hint, empty }: { items: { id: number; name: string; detail?: string }[]; value: number[]; onChange: (ids: number[]) => void; prefix: string; legend: string; hint: string; empty: ReactNode }) {
  const chosen = new Set(value);
  return (
    <fieldset className="min-w-0 space-y-2">
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <p className="text-xs text-slate-500">{hint}</p>
      {items.length === 0 ? (
        <p data-testid={`${prefix}-empty`} className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600">
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
