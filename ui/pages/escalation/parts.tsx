// Pieces the escalation list and the monitor and agent pages share: a policy's steps in words, and the moment of the
// next step as the rest of the app writes times (24-hour, the reader's zone, the zone spelled out on hover).
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { EscalationPolicy } from "../../api/escalation";
import { formatWithZone } from "../../components/time";
import { phrasesOf } from "./model";

/** Channel names by id; a channel deleted since reads as its id. */
export function useChannelNames(names: ReadonlyMap<number, string>) {
  const { t } = useTranslation();
  return (ids: readonly number[]) => ids.map((id) => names.get(id) ?? t("picker.deletedItem", { id })).join(t("escalation.words.separator"));
}

/** "1. Ops Slack → after 10 min", "2. On-call phone → after 20 min", "3. CTO mail, again every 30 min up to 3 times". */
export function StepWords({ policy, names, "data-testid": testId }: { policy: Pick<EscalationPolicy, "steps" | "repeatEveryMinutes" | "repeatLimit">; names: ReadonlyMap<number, string>; "data-testid"?: string }) {
  const { t } = useTranslation();
  const channels = useChannelNames(names);
  return (
    <ol data-testid={testId} className="space-y-0.5 text-sm text-slate-700">
      {phrasesOf(policy).map((p) => (
        <li key={p.n} data-testid={testId && `${testId}-${p.n}`} className="break-words [overflow-wrap:anywhere]">
          {t("escalation.words.step", { n: p.n, channels: channels(p.channelIds) })}
          {p.after !== null && <span className="text-slate-500"> {t("escalation.words.after", { minutes: p.after })}</span>}
          {p.again && <span className="text-slate-500">{t("escalation.words.again", { minutes: p.again.every, count: p.again.count })}</span>}
        </li>
      ))}
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
