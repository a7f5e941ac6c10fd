// A line of a monitor's or an agent's page: the escalation policy it follows and why ("Escalation: On-call (via group
// Web)"), and while a problem is open when the next step pages whom ("Will escalate to Manager at 03:12"), or that the
// last step has paged. Read again when the target's status changes (live), and on a timer while it is down or a
// problem is open: a run starts a moment after the status changes, and its next step comes due by the clock.
//
// data-testids: `escalation-line`, `escalation-policy` (a link to the escalation tab; data-source="monitor|group|tag|
//   default"), `escalation-none`, `escalation-next` (one per open problem; data-state="next|last").
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { getEscalation, type TargetEscalation } from "../../api/escalation";
import { getMonitor } from "../../api/monitors";
import { listChannels } from "../../api/notifications";
import { usePolling } from "../../components/hooks";
import { useClock } from "../../components/time";
import { useLive } from "../../state/live";
import { tabHref } from "../notifications/model";
import { useAtFormat } from "./parts";

/** While a problem is open (or the target is down and one is about to open). */
const OPEN_POLL_MS = 5_000;
/** Otherwise: a policy changed elsewhere shows within a minute. */
const IDLE_POLL_MS = 60_000;

export function EscalationLine({ type, id, troubled }: { type: "monitor" | "agent"; id: number; troubled: boolean }) {
  const { t } = useTranslation();
  const [escalation, setEscalation] = useState<TargetEscalation | null>(null);
  const [channels, setChannels] = useState<ReadonlyMap<number, string>>(new Map());
  const [groupName, setGroupName] = useState<{ id: number; name: string } | null>(null);

  const load = useCallback(async () => {
    try {
      const reply = await getEscalation(type, id);
      setEscalation(reply.escalation);
    } catch {
      // An extra of the page: what it showed stays (or nothing)
    }
  }, [type, id]);
  useEffect(() => setEscalation(null), [type, id]);
  // Also when the status the page shows changes: a run may have started or ended.
  useEffect(() => {
    void load();
  }, [load, troubled]);
  useLive("monitor.status", (e) => e.monitorId === id && void load(), type === "monitor");
  useLive("agent.status", (e) => e.agentId === id && void load(), type === "agent");
  const open = (escalation?.problems.length ?? 0) > 0;
  usePolling(load, troubled || open ? OPEN_POLL_MS : IDLE_POLL_MS);

  // Channel names, read again only when a step names one not known yet.
  const wanted = escalation?.problems.flatMap((p) => p.next?.channelIds ?? []) ?? [];
  const missing = wanted.some((c) => !channels.has(c));
  useEffect(() => {
    if (!missing) return;
    listChannels()
      .then((reply) => setChannels(new Map((reply.channels ?? []).map((c) => [c.id, c.name]))))
      .catch(() => {});
  }, [missing]);
  const source = escalation?.policy?.source;
  const groupId = source?.kind === "group" ? Number(source.ref) : null;
  useEffect(() => {
    if (groupId === null || groupName?.id === groupId) return;
    getMonitor(groupId)
      .then((reply) => setGroupName({ id: groupId, name: reply.monitor.name }))
      .catch(() => {});
  }, [groupId, groupName]);

  if (!escalation) return null;
  const { policy } = escalation;
  const via = !policy
    ? ""
    : policy.source.kind === "group"
      ? t("escalation.line.via.group", { name: groupName?.id === groupId ? groupName.name : `#${groupId}` })
      : policy.source.kind === "tag"
        ? t("escalation.line.via.tag", { name: policy.source.ref })
        : t(`escalation.line.via.${policy.source.kind}`);
  return (
    <div data-testid="escalation-line" className="mt-1 space-y-0.5 text-xs text-slate-500">
      <p>
        {t("escalation.line.label")}:{" "}
        {policy ? (
          <>
            <Link href={tabHref("escalation")} className="font-medium text-indigo-600 hover:underline" data-testid="escalation-policy" data-source={policy.source.kind}>
              {policy.name}
            </Link>{" "}
            {via}
          </>
        ) : (
          <span data-testid="escalation-none">{t("escalation.line.none")}</span>
        )}
      </p>
      {escalation.problems.map((p) => (
        <NextStep key={p.condition} problem={p} channels={channels} conditionShown={escalation.problems.length > 1} />
      ))}
    </div>
  );
}

function NextStep({ problem, channels, conditionShown }: { problem: TargetEscalation["problems"][number]; channels: ReadonlyMap<number, string>; conditionShown: boolean }) {
  const { t } = useTranslation();
  const now = useClock();
  const at = useAtFormat();
  const { next } = problem;
  const prefix = conditionShown ? `${problem.condition}: ` : "";
  if (!next) {
    return (
      <p data-testid="escalation-next" data-state="last" className="font-medium text-slate-700">
        {prefix}
        {t("escalation.line.last")}
      </p>
    );
  }
  const whom = [
    ...next.channelIds.map((id) => channels.get(id) ?? t("picker.deletedItem", { id })),
    ...next.people.map((p) => (p.schedule ? t("escalation.line.onCallIn", { name: p.username, schedule: p.schedule.name }) : p.username)),
  ].join(t("escalation.words.separator"));
  const values = { channels: whom, time: at.text(next.at, now) };
  const unreachable = next.people.filter((p) => !p.reachable);
  return (
    <>
      <p data-testid="escalation-next" data-state="next" title={at.title(next.at)} className="font-medium text-amber-800">
        {prefix}
        {t(next.repeat > 0 ? "escalation.line.willRepeat" : "escalation.line.willEscalate", values)}
      </p>
      {unreachable.map((p) => (
        <p key={p.userId} data-testid="escalation-unreachable" className="text-red-700">
          {t("escalation.line.unreachable", { name: p.username })}
        </p>
      ))}
    </>
  );
}
