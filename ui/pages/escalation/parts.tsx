// Pieces the escalation list and the monitor and agent pages share: a policy's steps in words, and the moment of the
// next step as the rest of the app writes times (24-hour, the reader's zone, the zone spelled out on hover).
import { useMemo } from "react";
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
