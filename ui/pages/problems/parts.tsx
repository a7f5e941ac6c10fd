// An open problem's acknowledgement on screen: "Acknowledged by alice at 03:12", or the Acknowledge button for editors
// and admins (viewers are told it is not acknowledged yet), and the panel listing a target's open problems.
//
// data-testids: `problem-ack` (data-state="acked" | "open"), `problem-ack-button`, `open-problems`, `open-problem`
// (data-condition), `open-problem-condition`.
import { useSignals } from "@preact/signals-react/runtime";
import { useTranslation } from "react-i18next";
import type { Problem, ProblemAck, ProblemTargetType } from "../../api/problems";
import { Button } from "../../components/Button";
import { formatDuration, secondsSince } from "../../components/format";
import { formatWithZone, STYLE_OPTIONS, useClock, useDurationUnits } from "../../components/time";
import { canEdit } from "../../state/session";
import { conditionText, problemsOf } from "./model";
import { useProblems } from "./useProblems";

/** "03:12" today, "Nov 22, 2026, 03:12" before: when it was acknowledged, in the reader's language and zone. */
function ackTime(at: number, locale: string): string {
  const today = new Date().toDateString() === new Date(at).toDateString();
  return new Intl.DateTimeFormat(locale, today ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : STYLE_OPTIONS.datetime).format(at);
}

/** Who acknowledged it and when, in the reader's language (a link's acknowledgement names its channel). */
export function AckText({ ack }: { ack: ProblemAck }) {
  const { t, i18n } = useTranslation();
  const time = ackTime(ack.at, i18n.language);
  const text =
    ack.via !== "link"
      ? t("problems.ackedBy", { by: ack.by, time })
      : ack.channel !== null
        ? t("problems.ackedViaLink", { channel: ack.channel, time })
        : t("problems.ackedViaLinkPlain", { time });
  return (
    <span data-testid="problem-ack" data-state="acked" title={formatWithZone(ack.at, i18n.language)} className="inline-flex items-center gap-1.5 text-sm text-emerald-700">
      <span aria-hidden="true" className="size-1.5 shrink-0 rounded-full bg-emerald-500" />
      {text}
    </span>
  );
}

/** The acknowledgement of one open problem, or the button that gives it (editors and admins only). */
export function AckState({ problem, onAcknowledge, busy }: { problem: Problem; onAcknowledge: (p: Problem) => void; busy: boolean }) {
  useSignals();
  const { t } = useTranslation();
  if (problem.ack) return <AckText ack={problem.ack} />;
  if (!canEdit.value) {
    return (
      <span data-testid="problem-ack" data-state="open" className="text-sm text-slate-500">
        {t("problems.notAcked")}
      </span>
    );
  }
  return (
    <Button size="sm" variant="secondary" className="shrink-0 self-start sm:self-auto" busy={busy} onClick={() => onAcknowledge(problem)} title={t("problems.hint")} data-testid="problem-ack-button">
      {busy ? t("problems.acknowledging") : t("problems.acknowledge")}
    </Button>
  );
}

/** "Down", "Disk almost full: /data", "Container web stopped". */
export function ConditionLabel({ condition }: { condition: string }) {
  const { t } = useTranslation();
  const { key, values } = conditionText(condition);
  return <>{t(key as never, values)}</>;
}

/** How long it has been open, ticking. */
function OpenFor({ since }: { since: number }) {
  const { t, i18n } = useTranslation();
  const now = useClock();
  const units = useDurationUnits();
  return (
    <time dateTime={new Date(since).toISOString()} title={formatWithZone(since, i18n.language)} className="text-xs text-slate-500">
      {t("problems.since", { time: formatDuration(secondsSince(since, now), units) })}
    </time>
  );
}

/** A monitor's or agent's open problems, each with its acknowledgement (nothing while it has none). */
export function OpenProblems({ type, id }: { type: ProblemTargetType; id: number }) {
  const { t } = useTranslation();
  const { problems, acknowledge, busy } = useProblems();
  const open = problems ? problemsOf(problems, type, id) : [];
  if (open.length === 0) return null;
  return (
    <section data-testid="open-problems" aria-labelledby="open-problems-title" className="rounded-xl border border-red-200 bg-white shadow-sm">
      <h2 id="open-problems-title" className="flex items-center gap-2 border-b border-red-100 px-4 py-2.5 text-sm font-semibold text-slate-900 sm:px-5">
        <span aria-hidden="true" className="size-2 rounded-full bg-red-500" />
        {t("problems.title")}
      </h2>
      <ul className="divide-y divide-slate-100">
        {open.map((p) => (
          <li key={p.condition} data-testid="open-problem" data-condition={p.condition} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4 sm:px-5">
            <span className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-3 gap-y-1">
              <span data-testid="open-problem-condition" className="font-medium text-red-700">
                <ConditionLabel condition={p.condition} />
              </span>
              <OpenFor since={p.since} />
            </span>
            <AckState problem={p} onAcknowledge={(x) => void acknowledge(x)} busy={busy(p)} />
          </li>
        ))}
      </ul>
    </section>
  );
}
