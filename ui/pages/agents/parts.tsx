import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { AgentStatus, PublicAgent } from "../../api/agents";
import { Button, ButtonLink } from "../../components/Button";
import { CodeBlock } from "../../components/CodeBlock";
import { EditorOnly } from "../../components/guards";
import { formatDuration, formatPercent, secondsSince, usageLevel } from "../../components/format";
import { Ago, useDurationUnits } from "../../components/time";
import { finishCommand } from "./model";

export { useDurationUnits };

// Small pieces shared by the agent screens.

/** What an agent's badge shows: its status, or "maintenance" while it is in a maintenance window. */
export type AgentDisplayStatus = AgentStatus | "maintenance";

export const agentDisplayStatus = (agent: { status: AgentStatus; maintenance?: boolean }): AgentDisplayStatus => (agent.maintenance ? "maintenance" : agent.status);

const STATUS_STYLE: Record<AgentDisplayStatus, { badge: string; dot: string }> = {
  online: { badge: "bg-emerald-50 text-emerald-700 ring-emerald-600/20", dot: "bg-emerald-500" },
  offline: { badge: "bg-slate-100 text-slate-600 ring-slate-500/20", dot: "bg-red-500" },
  connecting: { badge: "bg-amber-50 text-amber-800 ring-amber-600/25", dot: "bg-amber-500 animate-pulse" },
  maintenance: { badge: "bg-sky-50 text-sky-700 ring-sky-600/20", dot: "bg-sky-500" },
};

/** Online (green), offline (grey with a red dot), connecting (amber, pulsing): spec §4; maintenance blue. */
export function AgentStatusBadge({ status, "data-testid": testId }: { status: AgentDisplayStatus; "data-testid"?: string }) {
  const { t } = useTranslation();
  const style = STATUS_STYLE[status] ?? STATUS_STYLE.offline;
  return (
    <span
      data-testid={testId}
      data-status={status}
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style.badge}`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${style.dot}`} />
      {t(`agents.status.${status}`)}
    </span>
  );
}

const BAR: Record<ReturnType<typeof usageLevel>, string> = {
  ok: "bg-emerald-500",
  warn: "bg-amber-500",
  critical: "bg-red-500",
};

/** A thin horizontal bar for a percentage, green / amber / red by how full it is. */
export function UsageBar({ percent, className = "" }: { percent: number | null | undefined; className?: string }) {
  const value = typeof percent === "number" && Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  return (
    <div
      className={`h-1.5 w-full overflow-hidden rounded-full bg-slate-100 ${className}`}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(value)}
    >
      <div className={`h-full rounded-full transition-[width] duration-500 ${BAR[usageLevel(percent)]}`} style={{ width: `${value}%` }} />
    </div>
  );
}

/** A labelled percentage with its bar (card view, current values). */
export function UsageMeter({ label, percent, detail }: { label: ReactNode; percent: number | null | undefined; detail?: ReactNode }) {
  return (
    <div className="min-w-0">
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="truncate text-slate-500">{label}</span>
        <span className="font-medium tabular-nums text-slate-800">{formatPercent(percent)}</span>
      </div>
      <UsageBar percent={percent} className="mt-1" />
      {detail && <div className="mt-1 truncate text-[11px] tabular-nums text-slate-400">{detail}</div>}
    </div>
  );
}


/** "12s ago", or "Never" when the agent has not reported. */
export function useAgo() {
  const { t } = useTranslation();
  const units = useDurationUnits();
  return (then: number | null | undefined, now: number) =>
    then ? t("common.ago", { time: formatDuration(secondsSince(then, now), units) }) : t("agents.never");
}

/** "12s ago" for an agent's last report, or "Never reported (registered 5m ago)" when it has not reported yet. */
export function useLastReport() {
  const { t } = useTranslation();
  const units = useDurationUnits();
  const ago = useAgo();
  return (agent: Pick<PublicAgent, "lastSeenAt" | "createdAt">, now: number) =>
    agent.lastSeenAt ? ago(agent.lastSeenAt, now) : t("agents.neverReported.title", { time: formatDuration(secondsSince(agent.createdAt, now), units) });
}

/**
 * An agent that registered but never reported (an install that stopped half way): how to finish it on its host, or
 * remove it. Installing again from that host replaces it by itself (server/agents/service.ts).
 */
export function NeverReported({ agent, removing, onRemove }: { agent: PublicAgent; removing: boolean; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-3 text-left" data-testid={`agent-never-reported-${agent.id}`}>
      <p className="text-sm text-slate-600">{t("agents.neverReported.finish", { host: agent.hostname || agent.name })}</p>
      <CodeBlock code={finishCommand(agent)} data-testid={`agent-finish-command-${agent.id}`} copyTestId={`agent-copy-finish-${agent.id}`} />
      <p className="text-xs text-slate-500">{t("agents.neverReported.again")}</p>
      <EditorOnly>
        <div className="flex flex-wrap gap-2">
          <ButtonLink href="/agents/create" variant="secondary" size="sm" data-testid={`agent-guide-${agent.id}`}>
            {t("agents.neverReported.guide")}
          </ButtonLink>
          <Button variant="dangerGhost" size="sm" busy={removing} onClick={onRemove} data-testid={`agent-remove-${agent.id}`}>
            {t("agents.neverReported.remove")}
          </Button>
        </div>
      </EditorOnly>
    </div>
  );
}


/**
 * The current values of an agent, greyed when it is offline: they are what it last reported, not what the server
 * shows now, so they come with "last seen …" (here or, on a card, in its footer) (spec §4 keeps showing them rather than blanking them).
 */
export function StaleValues({
  agent,
  children,
  notice,
  lastSeen = true,
  className = "",
  "data-testid": testId,
}: {
  agent: { status: AgentStatus; lastSeenAt: number | null };
  children: ReactNode;
  /** The sentence above the values; the card uses a shorter one. */
  notice: string;
  /** Add "Last seen: … ago" (the card has it in its footer already). */
  lastSeen?: boolean;
  className?: string;
  "data-testid"?: string;
}) {
  const { t } = useTranslation();
  const stale = agent.status === "offline";
  return (
    <div data-testid={testId} data-stale={stale} className={className}>
      {stale && (
        <p role="status" data-testid={testId && `${testId}-stale`} className="mb-3 flex flex-wrap items-center gap-x-1.5 rounded-lg bg-slate-100 px-3 py-2 text-xs text-slate-600">
          <span className="font-medium text-slate-700">{notice}</span>
          {lastSeen && (
            <span>
              {t("agents.fields.lastSeen")}: <Ago at={agent.lastSeenAt} never={t("agents.never")} />
            </span>
          )}
        </p>
      )}
      <div className={stale ? "opacity-55 grayscale" : undefined}>{children}</div>
    </div>
  );
}

/** Table header and cell classes of the agent page's tables (disks, interfaces, containers). */
export const TH = "px-4 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 whitespace-nowrap";
export const TD = "px-4 py-2.5 text-sm text-slate-700 whitespace-nowrap tabular-nums";
