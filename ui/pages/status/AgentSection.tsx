// The status page's agents: a card each with its status and latest usage.
import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { StatusAgent } from "../../api/status";
import { formatDuration, formatLoad } from "../../components/format";
import { Ago, useDurationUnits } from "../../components/time";
import { AgentStatusBadge, UsageMeter } from "../agents/parts";

export function AgentSection({ agents }: { agents: StatusAgent[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section data-testid="status-agents" aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-slate-900">
        {t("statusPage.agents")}
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2">
        {agents.map((a) => (
          <AgentCard key={a.id} agent={a} />
        ))}
      </ul>
    </section>
  );
}

function AgentCard({ agent: a }: { agent: StatusAgent }) {
  const { t } = useTranslation();
  const units = useDurationUnits();
  const dash = t("common.dash");
  // An offline agent's numbers are its last report: greyed, not presented as current.
  const faded = a.status !== "online" ? "opacity-60" : "";
  return (
    <li data-testid={`status-agent-${a.id}`} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex items-center gap-3">
        <h3 className="min-w-0 flex-1 break-words font-medium text-slate-900">{a.name}</h3>
        <AgentStatusBadge status={a.status} data-testid={`status-agent-status-${a.id}`} />
      </div>
      <div className={`mt-4 grid grid-cols-3 gap-3 ${faded}`}>
        <Metric testId={`status-agent-cpu-${a.id}`}>
          <UsageMeter label={t("statusPage.cpu")} percent={a.cpu} />
        </Metric>
        <Metric testId={`status-agent-memory-${a.id}`}>
          <UsageMeter label={t("statusPage.memory")} percent={a.memory} />
        </Metric>
        <Metric testId={`status-agent-disk-${a.id}`}>
          <UsageMeter label={t("statusPage.disk")} percent={a.disk} />
        </Metric>
      </div>
      <dl className={`mt-4 grid grid-cols-2 gap-3 text-xs ${faded}`}>
        <div className="min-w-0">
          <dt className="text-slate-500">{t("statusPage.load")}</dt>
          <dd data-testid={`status-agent-load-${a.id}`} className="mt-0.5 font-medium tabular-nums text-slate-800">
            {a.load ? [a.load.one, a.load.five, a.load.fifteen].map((v) => formatLoad(v)).join(" · ") : dash}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-slate-500">{t("statusPage.upFor")}</dt>
          <dd data-testid={`status-agent-uptime-${a.id}`} className="mt-0.5 font-medium tabular-nums text-slate-800">
            {formatDuration(a.uptime, units, dash)}
          </dd>
        </div>
      </dl>
      {a.status === "offline" && a.lastSeenAt !== null && (
        <p data-testid={`status-agent-last-${a.id}`} className="mt-3 text-xs text-slate-500">
          {t("statusPage.lastReport")}: <Ago at={a.lastSeenAt} never={dash} />
        </p>
      )}
    </li>
  );
}

function Metric({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div data-testid={testId} className="min-w-0">
      {children}
    </div>
  );
}
