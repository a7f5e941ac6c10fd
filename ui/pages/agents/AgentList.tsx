import { Fragment, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearch } from "wouter";
import { deleteAgent, type PublicAgent } from "../../api/agents";
import { Button, ButtonLink, buttonClass } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { formatBytes, formatDuration, formatLoad, formatPercent, formatRate } from "../../components/format";
import { useMediaQuery, useNow } from "../../components/hooks";
import { GridIcon, ListIcon, PlusIcon, ServerIcon } from "../../components/icons";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { AGENT_STATUS_FILTERS, fullestDisk, loadView, parseAgentStatusFilter, saveView, sortForTriage, totalRates, type AgentView } from "./model";
import { AgentStatusBadge, agentDisplayStatus, NeverReported, StaleValues, UsageMeter, useDurationUnits, useLastReport } from "./parts";
import { useAgents } from "./useAgents";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { FilterPills } from "../../components/FilterPills";
import { EditorOnly } from "../../components/guards";
import { canEdit } from "../../state/session";

const EMPTY: PublicAgent[] = [];

/** All / Offline / Connecting / Online with counts; kept in the URL (`?status=offline`) so the view can be shared. */
function AgentStatusFilter({ agents, value }: { agents: PublicAgent[]; value: PublicAgent["status"] | null }) {
  const { t } = useTranslation();
  const count = (status: PublicAgent["status"]) => agents.filter((a) => a.status === status).length;
  const options = [
    { key: null, label: t("agents.filter.all"), count: agents.length },
    ...AGENT_STATUS_FILTERS.map((key) => ({ key, label: t(`agents.status.${key}`), count: count(key) })),
  ];
  return <FilterPills base="/agents" label={t("agents.filter.label")} options={options} value={value} className="mb-4" testId="agents-filter" />;
}

const TH = "px-3 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 whitespace-nowrap";
const TD = "px-3 py-3 text-sm text-slate-700 whitespace-nowrap";
/** The table's column count: a never-reported agent's "finish the install" row spans them all. */
const COLUMNS = 11;

interface RowProps {
  agent: PublicAgent;
  now: number;
  deleting: boolean;
  onDelete: (agent: PublicAgent) => void;
}

/** Edit and Delete, as on the user list. */
function Actions({ agent, deleting, onDelete }: Omit<RowProps, "now">) {
  const { t } = useTranslation();
  return (
    <EditorOnly>
    <div className="flex justify-end gap-2">
      <Link href={`/agents/edit/${agent.id}`} className={buttonClass("secondary", "sm")} data-testid={`agent-edit-${agent.id}`}>
        {t("common.edit")}
      </Link>
      <Button variant="dangerGhost" size="sm" busy={deleting} onClick={() => onDelete(agent)} data-testid={`agent-delete-${agent.id}`}>
        {t("common.delete")}
      </Button>
    </div>
    </EditorOnly>
  );
}

/** Hostname and the first IP (all of them in the tooltip). */
function hostLine(agent: PublicAgent) {
  return [agent.hostname, agent.ips[0]].filter(Boolean).join(" · ");
}

function AgentCard({ agent, now, deleting, onDelete }: RowProps) {
  const { t } = useTranslation();
  const lastReport = useLastReport();
  const units = useDurationUnits();
  const s = agent.latest;
  const disk = fullestDisk(s?.disks);
  const rates = totalRates(s?.network);
  return (
    <Card className="flex flex-col" data-testid={`agent-card-${agent.id}`}>
      <div className="flex items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
        <div className="min-w-0">
          <Link href={`/agents/${agent.id}`} className="block truncate text-base font-semibold text-slate-900 hover:text-indigo-600" data-testid={`agent-link-${agent.id}`}>
            {agent.name}
          </Link>
          <p className="mt-0.5 truncate text-xs text-slate-500" title={agent.ips.join(", ")}>
            {hostLine(agent) || t("common.dash")}
          </p>
          <p className="truncate text-xs text-slate-400">{[agent.os, agent.arch].filter(Boolean).join(" · ") || t("common.dash")}</p>
        </div>
        <AgentStatusBadge status={agentDisplayStatus(agent)} data-testid={`agent-status-${agent.id}`} />
      </div>
      {s ? (
        <StaleValues agent={agent} notice={t("agents.stale.card")} lastSeen={false} className="flex-1 px-5 py-4" data-testid={`agent-values-${agent.id}`}>
          <div className="grid grid-cols-3 gap-3 sm:gap-4">
            <UsageMeter label={t("agents.metrics.cpu")} percent={s.cpu.usage} detail={t("agents.coresCount", { count: s.cpu.cores })} />
            <UsageMeter
              label={t("agents.metrics.memory")}
              percent={s.memory.usageRate}
              detail={`${formatBytes(s.memory.used)} / ${formatBytes(s.memory.total)}`}
            />
            <UsageMeter label={t("agents.metrics.disk")} percent={disk?.usageRate} detail={disk?.mountPoint ?? t("common.dash")} />
            <dl className="col-span-3 grid grid-cols-2 gap-x-4 gap-y-2 text-xs sm:grid-cols-3">
              <div className="min-w-0">
                <dt className="text-slate-400">{t("agents.metrics.network")}</dt>
                <dd className="tabular-nums text-slate-700">
                  <span title={t("agents.rx")}>↓ {formatRate(rates?.rx)}</span>
                  <br />
                  <span title={t("agents.tx")}>↑ {formatRate(rates?.tx)}</span>
                </dd>
              </div>
              <div className="min-w-0">
                <dt className="text-slate-400">{t("agents.metrics.load")}</dt>
                <dd className="tabular-nums text-slate-700">
                  {formatLoad(s.load.one)} / {formatLoad(s.load.five)} / {formatLoad(s.load.fifteen)}
                </dd>
              </div>
              <div className="min-w-0">
                <dt className="text-slate-400">{t("agents.fields.uptime")}</dt>
                <dd className="tabular-nums text-slate-700">{formatDuration(agent.uptime, units)}</dd>
              </div>
            </dl>
          </div>
        </StaleValues>
      ) : (
        <div className="flex-1 px-5 py-4">
          <NeverReported agent={agent} removing={deleting} onRemove={() => onDelete(agent)} />
        </div>
      )}
      <div className="flex items-center justify-between gap-3 border-t border-slate-100 px-5 py-3">
        <span className="truncate text-xs text-slate-500" data-testid={`agent-last-seen-${agent.id}`}>
          {agent.lastSeenAt ? `${t("agents.fields.lastSeen")}: ${lastReport(agent, now)}` : lastReport(agent, now)}
        </span>
        <Actions agent={agent} deleting={deleting} onDelete={onDelete} />
      </div>
    </Card>
  );
}

function AgentTable({ agents, now, deletingId, onDelete }: { agents: PublicAgent[]; now: number; deletingId: number | null; onDelete: (a: PublicAgent) => void }) {
  const { t } = useTranslation();
  const lastReport = useLastReport();
  const units = useDurationUnits();
  return (
    <Card className="overflow-hidden">
      <div className="overflow-x-auto">
        <table data-testid="agents-table" className="min-w-full divide-y divide-slate-200">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={TH}>{t("agents.fields.name")}</th>
              <th scope="col" className={TH}>{t("agents.fields.host")}</th>
              <th scope="col" className={TH}>{t("agents.fields.os")}</th>
              <th scope="col" className={`${TH} text-right`}>{t("agents.metrics.cpu")}</th>
              <th scope="col" className={`${TH} text-right`}>{t("agents.metrics.memory")}</th>
              <th scope="col" className={`${TH} text-right`}>{t("agents.metrics.disk")}</th>
              <th scope="col" className={`${TH} text-right`}>{t("agents.metrics.network")}</th>
              <th scope="col" className={`${TH} text-right`}>{t("agents.metrics.load")}</th>
              <th scope="col" className={`${TH} text-right`}>{t("agents.fields.uptime")}</th>
              <th scope="col" className={TH}>{t("agents.fields.lastSeen")}</th>
              <th scope="col" className={`${TH} text-right`}>{t("agents.fields.actions")}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 bg-white">
            {agents.map((agent) => {
              const s = agent.latest;
              const disk = fullestDisk(s?.disks);
              const rates = totalRates(s?.network);
              // An offline agent's figures are its last report: greyed, the last-seen column says when.
              const stale = agent.status === "offline" && s !== null;
              const M = stale ? `${TD} text-slate-400` : TD;
              return (
                <Fragment key={agent.id}>
                <tr data-testid={`agent-row-${agent.id}`} data-stale={stale} className="hover:bg-slate-50/60">
                  <td className={TD}>
                    <Link href={`/agents/${agent.id}`} className="block max-w-48 truncate font-medium text-slate-900 hover:text-indigo-600" data-testid={`agent-link-${agent.id}`}>
                      {agent.name}
                    </Link>
                    <div className="mt-1">
                      <AgentStatusBadge status={agentDisplayStatus(agent)} data-testid={`agent-status-${agent.id}`} />
                    </div>
                  </td>
                  <td className={TD} title={agent.ips.join(", ")}>
                    <div className="text-slate-800">{agent.hostname || t("common.dash")}</div>
                    <div className="text-xs text-slate-400">{agent.ips[0] ?? t("common.dash")}</div>
                  </td>
                  <td className={`${TD} max-w-44 truncate`} title={agent.os}>
                    <div className="truncate">{agent.os || t("common.dash")}</div>
                    <div className="text-xs text-slate-400">{agent.arch}</div>
                  </td>
                  <td className={`${M} text-right tabular-nums`}>{formatPercent(s?.cpu.usage)}</td>
                  <td className={`${M} text-right tabular-nums`}>{formatPercent(s?.memory.usageRate)}</td>
                  <td className={`${M} text-right tabular-nums`} title={disk?.mountPoint}>
                    {formatPercent(disk?.usageRate)}
                  </td>
                  <td className={`${M} text-right text-xs tabular-nums`}>
                    {rates ? (
                      <>
                        <div title={t("agents.rx")}>↓ {formatRate(rates.rx)}</div>
                        <div title={t("agents.tx")}>↑ {formatRate(rates.tx)}</div>
                      </>
                    ) : (
                      t("common.dash")
                    )}
                  </td>
                  <td className={`${M} text-right tabular-nums`}>
                    {s ? `${formatLoad(s.load.one)} / ${formatLoad(s.load.five)} / ${formatLoad(s.load.fifteen)}` : t("common.dash")}
                  </td>
                  <td className={`${M} text-right tabular-nums`}>{s ? formatDuration(agent.uptime, units) : t("common.dash")}</td>
                  <td className={`${TD} text-slate-500`} data-testid={`agent-last-seen-${agent.id}`}>
                    {lastReport(agent, now)}
                  </td>
                  <td className={`${TD} text-right`}>
                    <Actions agent={agent} deleting={deletingId === agent.id} onDelete={onDelete} />
                  </td>
                </tr>
                {agent.lastSeenAt === null && (
                  <tr data-testid={`agent-row-finish-${agent.id}`}>
                    <td colSpan={COLUMNS} className="max-w-0 bg-amber-50/40 px-3 pb-4 pt-1">
                      <NeverReported agent={agent} removing={deletingId === agent.id} onRemove={() => onDelete(agent)} />
                    </td>
                  </tr>
                )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function ViewToggle({ view, onChange }: { view: AgentView; onChange: (v: AgentView) => void }) {
  const { t } = useTranslation();
  const item = (value: AgentView, label: string, Icon: typeof GridIcon) => (
    <button
      type="button"
      onClick={() => onChange(value)}
      aria-pressed={view === value}
      title={label}
      data-testid={`agents-view-${value}`}
      className={`inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors ${
        view === value ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-200" : "text-slate-500 hover:text-slate-800"
      }`}
    >
      <Icon className="size-4" />
      <span className="hidden sm:inline">{label}</span>
    </button>
  );
  return (
    <div role="group" aria-label={t("agents.view.label")} className="inline-flex rounded-lg bg-slate-100 p-0.5">
      {item("cards", t("agents.view.cards"), GridIcon)}
      {item("table", t("agents.view.table"), ListIcon)}
    </div>
  );
}

function EmptyState() {
  const { t } = useTranslation();
  return (
    <div data-testid="agents-empty" className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
        <ServerIcon className="size-6" />
      </span>
      <h2 className="mt-4 text-base font-semibold text-slate-900">{t("agents.empty.title")}</h2>
      <p className="mt-2 max-w-md text-sm text-slate-600" data-testid="agents-empty-message">
        {t(canEdit.value ? "agents.empty.message" : "agents.empty.viewerMessage")}
      </p>
      <EditorOnly>
      <ButtonLink href="/agents/create" className="mt-6" data-testid="agents-empty-create">
        <PlusIcon className="size-4" />
        {t("agents.add")}
      </ButtonLink>
      </EditorOnly>
    </div>
  );
}

export default function AgentList() {
  const { t } = useTranslation();
  useDocumentTitle(t("agents.title"));
  const { state, remove, reload } = useAgents();
  const [view, setView] = useState<AgentView>(() => loadView());
  const now = useNow(1000);

  const changeView = (next: AgentView) => {
    setView(next);
    saveView(next);
  };
  const { ask: askDelete, deletingId, dialog: deleteDialog } = useDeleteConfirmation<PublicAgent>({
    section: "agents",
    message: (a) => t("agents.confirmDelete.message", { name: a.name }),
    remove: deleteAgent,
    onDeleted: remove,
  });

  const all = state.phase === "loaded" ? state.agents : EMPTY;
  const filter = parseAgentStatusFilter(useSearch());
  const agents = useMemo(() => {
    const sorted = sortForTriage(all);
    return filter ? sorted.filter((a) => a.status === filter) : sorted;
  }, [all, filter]);
  // A phone gets the cards whatever the remembered view: a seven-column table does not fit 390 px.
  const wide = useMediaQuery("(min-width: 768px)");
  const shownView: AgentView = wide ? view : "cards";
  return (
    <div>
      <PageHeader
        title={t("agents.title")}
        description={t("agents.subtitle")}
        actions={
          <>
            <ViewToggle view={view} onChange={changeView} />
            <EditorOnly>
            <ButtonLink href="/agents/create" data-testid="agent-create-button">
              <PlusIcon className="size-4" />
              {t("agents.add")}
            </ButtonLink>
            </EditorOnly>
          </>
        }
      />
      {state.phase === "loading" && (
        <Card>
          <LoadingMessage data-testid="agents-loading">{t("agents.loading")}</LoadingMessage>
        </Card>
      )}
      {state.phase === "error" && (
        <Card>
          <LoadError data-testid="agents-error" message={state.message} onRetry={() => void reload()} />
        </Card>
      )}
      {state.phase === "loaded" && state.stale && (
        <p data-testid="agents-stale" role="status" className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
          {t("agents.staleList", { message: state.stale })}
        </p>
      )}
      {state.phase === "loaded" && all.length === 0 && <EmptyState />}
      {all.length > 0 && <AgentStatusFilter agents={all} value={filter} />}
      {all.length > 0 && agents.length === 0 && (
        <Card>
          <p data-testid="agents-filter-empty" className="px-6 py-12 text-center text-sm text-slate-500">
            {t("agents.filter.empty")}
          </p>
        </Card>
      )}
      {agents.length > 0 && shownView === "cards" && (
        <div data-testid="agents-cards" className="grid gap-5 md:grid-cols-2 xl:grid-cols-3">
          {agents.map((agent) => (
            <AgentCard key={agent.id} agent={agent} now={now} deleting={deletingId === agent.id} onDelete={askDelete} />
          ))}
        </div>
      )}
      {agents.length > 0 && shownView === "table" && <AgentTable agents={agents} now={now} deletingId={deletingId} onDelete={askDelete} />}
      {deleteDialog}
    </div>
  );
}
