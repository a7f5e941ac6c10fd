import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Time } from "../../components/time";
import { useLocation, useParams } from "wouter";
import {
  SERIES_RANGES,
  deleteAgent,
  exportSamples,
  getAgent,
  getAgentSeries,
  type AgentSeries,
  type PublicAgent,
  type Sample,
  type SeriesRange,
} from "../../api/agents";
import { errorMessage } from "../../api/errors";
import { Button, ButtonLink } from "../../components/Button";
import { BellIcon } from "../../components/icons";
import { Card, PageHeader } from "../../components/Card";
import { BINARY_INCRS, TimeSeriesChart, type ChartSeries, type ChartThreshold } from "../../components/charts/TimeSeriesChart";
import { PERCENT_INCRS, fitPercentRange } from "../../components/charts/chartData";
import { USAGE_CRITICAL, formatBytes, formatBytesCompact, formatCount, formatDuration, formatLoad, formatPercent, formatRate } from "../../components/format";
import { useNow, usePolling } from "../../components/hooks";
import { PageLoading } from "../../components/PageLoading";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { diskSlug, totalRates } from "./model";
import { Fact, RangeTabs } from "../../components/DetailParts";
import { AgentStatusBadge, agentDisplayStatus, NeverReported, StaleValues, TD, TH, UsageBar, useDurationUnits, useLastReport } from "./parts";
import { buildDetailCharts, type ChartLabels } from "./seriesCharts";
import { MaintenancePanel } from "../maintenance/MaintenancePanel";
import { OpenProblems } from "../problems/parts";
import { ContainersSection } from "./Containers";
import { useLive } from "../../state/live";
import { EscalationLine } from "../escalation/EscalationLine";
import { EditorOnly } from "../../components/guards";
import { ExportForm } from "../../components/ExportForm";

/** How often the snapshot refreshes, and the charts per range (rollups change slowly). */
const AGENT_POLL_MS = 10_000;
const SERIES_POLL_MS: Record<SeriesRange, number> = { "1h": 15_000, "24h": 60_000, "7d": 300_000, "30d": 300_000 };


/** "12s ago" (or "never reported (registered …)"), ticking on its own so the rest of the page does not re-render every second. */
function LastSeen({ agent }: { agent: PublicAgent }) {
  const now = useNow(1000);
  const lastReport = useLastReport();
  return <>{lastReport(agent, now)}</>;
}

function Section({ title, actions, children, testId }: { title: ReactNode; actions?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section data-testid={testId} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

function Tile({ label, value, detail, children, testId }: { label: ReactNode; value: ReactNode; detail?: ReactNode; children?: ReactNode; testId?: string }) {
  return (
    <Card className="p-4" data-testid={testId}>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-400">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value}</p>
      {children}
      {detail && <p className="mt-1 truncate text-xs text-slate-500">{detail}</p>}
    </Card>
  );
}

function Facts({ agent }: { agent: PublicAgent }) {
  const { t } = useTranslation();
  const units = useDurationUnits();
  const cpu = agent.latest?.cpu;
  const dash = t("common.dash");
  return (
    <Card className="p-5 sm:p-6" data-testid="agent-facts">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-4 sm:grid-cols-3 lg:grid-cols-4">
        <Fact label={t("agents.fields.hostname")} testId="agent-fact-hostname">{agent.hostname || dash}</Fact>
        <Fact label={t("agents.fields.ips")} testId="agent-fact-ips">{agent.ips.length ? agent.ips.join(", ") : dash}</Fact>
        <Fact label={t("agents.fields.os")} testId="agent-fact-os">{agent.os || dash}</Fact>
        <Fact label={t("agents.fields.kernel")}>{agent.kernel || dash}</Fact>
        <Fact label={t("agents.fields.arch")}>{agent.arch || dash}</Fact>
        <Fact label={t("agents.fields.agentVersion")} testId="agent-fact-version">{agent.agentVersion || dash}</Fact>
        <Fact label={t("agents.fields.cpuModel")}>{cpu?.model || dash}</Fact>
        <Fact label={t("agents.fields.cores")}>{cpu?.cores ?? dash}</Fact>
        <Fact label={t("agents.fields.uptime")} testId="agent-fact-uptime">{agent.latest ? formatDuration(agent.uptime, units) : dash}</Fact>
        <Fact label={t("agents.fields.lastSeen")} testId="agent-fact-last-seen">
          <LastSeen agent={agent} />
        </Fact>
        <Fact label={t("agents.fields.interval")}>{t("agents.seconds", { count: agent.interval })}</Fact>
        <Fact label={t("agents.fields.createdAt")}><Time at={agent.createdAt} /></Fact>
      </dl>
    </Card>
  );
}

function Current({ sample }: { sample: Sample }) {
  const { t, i18n } = useTranslation();
  const rates = totalRates(sample.network);
  return (
    <div className="space-y-4" data-testid="agent-current">
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <Tile label={t("agents.metrics.cpu")} value={formatPercent(sample.cpu.usage)} detail={t("agents.coresCount", { count: sample.cpu.cores })} testId="agent-current-cpu">
          <UsageBar percent={sample.cpu.usage} className="mt-2" />
        </Tile>
        <Tile
          label={t("agents.metrics.memory")}
          value={formatPercent(sample.memory.usageRate)}
          detail={t("agents.usedOfTotal", { used: formatBytes(sample.memory.used), total: formatBytes(sample.memory.total) })}
          testId="agent-current-memory"
        >
          <UsageBar percent={sample.memory.usageRate} className="mt-2" />
        </Tile>
        <Tile
          label={t("agents.metrics.load")}
          value={formatLoad(sample.load.one)}
          detail={`${t("agents.load.five")} ${formatLoad(sample.load.five)} · ${t("agents.load.fifteen")} ${formatLoad(sample.load.fifteen)}`}
          testId="agent-current-load"
        />
        <Tile
          label={t("agents.metrics.network")}
          value={<span className="text-lg">↓ {formatRate(rates?.rx)}</span>}
          detail={`↑ ${formatRate(rates?.tx)}`}
          testId="agent-current-network"
        />
      </div>

      <Card className="overflow-hidden">
        <h3 className="border-b border-slate-100 px-4 py-3 text-sm font-semibold text-slate-900">{t("agents.disks")}</h3>
        {sample.disks.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-500">{t("agents.noDisks")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-100" data-testid="agent-disks">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={TH}>{t("agents.disk.mountPoint")}</th>
                  <th scope="col" className={TH}>{t("agents.disk.device")}</th>
                  <th scope="col" className={TH}>{t("agents.disk.fsType")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.disk.used")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.disk.free")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.disk.total")}</th>
                  <th scope="col" className={`${TH} w-48`}>{t("agents.disk.usage")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {sample.disks.map((d) => (
                  <tr key={d.mountPoint} data-testid={`agent-disk-${diskSlug(d.mountPoint)}`}>
                    <td className={`${TD} font-medium text-slate-900`}>{d.mountPoint}</td>
                    <td className={`${TD} text-slate-500`}>{d.device}</td>
                    <td className={`${TD} text-slate-500`}>{d.fsType}</td>
                    <td className={`${TD} text-right`}>{formatBytes(d.used)}</td>
                    <td className={`${TD} text-right`}>{formatBytes(d.free)}</td>
                    <td className={`${TD} text-right`}>{formatBytes(d.total)}</td>
                    <td className={TD}>
                      <div className="flex items-center gap-2">
                        <UsageBar percent={d.usageRate} className="min-w-20" />
                        <span className="w-14 text-right text-xs">{formatPercent(d.usageRate)}</span>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <Card className="overflow-hidden">
        <h3 className="border-b border-slate-100 px-4 py-3 text-sm font-semibold text-slate-900">{t("agents.interfaces")}</h3>
        {sample.network.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-500">{t("agents.noInterfaces")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-100" data-testid="agent-interfaces">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={TH}>{t("agents.iface.name")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.iface.rxRate")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.iface.txRate")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.iface.received")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.iface.sent")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.iface.packetsReceived")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.iface.packetsSent")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {sample.network.map((n) => (
                  <tr key={n.name} data-testid={`agent-iface-${n.name}`}>
                    <td className={`${TD} font-medium text-slate-900`}>{n.name}</td>
                    <td className={`${TD} text-right`}>{formatRate(n.rxRate)}</td>
                    <td className={`${TD} text-right`}>{formatRate(n.txRate)}</td>
                    <td className={`${TD} text-right`}>{formatBytes(n.received)}</td>
                    <td className={`${TD} text-right`}>{formatBytes(n.sent)}</td>
                    <td className={`${TD} text-right`}>{formatCount(n.packetsReceived, i18n.language)}</td>
                    <td className={`${TD} text-right`}>{formatCount(n.packetsSent, i18n.language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}

function ChartCard({ title, subtitle, children }: { title: ReactNode; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <Card className="min-w-0 p-4">
      <div className="mb-2 flex items-baseline justify-between gap-3">
        <h3 className="truncate text-sm font-semibold text-slate-900">{title}</h3>
        {subtitle && <span className="truncate text-xs text-slate-500">{subtitle}</span>}
      </div>
      {children}
    </Card>
  );
}

/** Percent axes in whole numbers, the legend with one decimal. */
const pct = (v: number) => formatPercent(v, 0);
const pctLegend = (v: number) => formatPercent(v);
/** Memory and disks sit still for days: their charts fit the data (and the threshold when near) instead of 0–100. */
const fitToData = (lo: number | null, hi: number | null) => fitPercentRange(lo, hi, USAGE_CRITICAL);
const THRESHOLD_COLOR = "#dc2626";

function Charts({ series, latest }: { series: AgentSeries; latest: Sample | null }) {
  const { t } = useTranslation();
  const layout = JSON.stringify([latest?.disks.map((d) => d.mountPoint), latest?.network.map((n) => n.name)]);
  const charts = useMemo(() => {
    const labels: ChartLabels = {
      cpu: t("agents.metrics.cpu"),
      memory: t("agents.metrics.memory"),
      max: (label) => t("charts.max", { label }),
      load1: t("agents.load.one"),
      load5: t("agents.load.five"),
      load15: t("agents.load.fifteen"),
      rx: (name) => t("charts.rx", { name }),
      tx: (name) => t("charts.tx", { name }),
      disk: t("agents.disk.usage"),
    };
    return buildDetailCharts(series, latest, labels);
    // `latest` only names and orders disks and interfaces: a new snapshot every poll must not rebuild the charts,
    // only a change in which disks and interfaces there are.
  }, [series, t, layout]);
  const threshold = useMemo<ChartThreshold[]>(
    () => [{ value: USAGE_CRITICAL, label: t("charts.threshold", { value: formatPercent(USAGE_CRITICAL, 0) }), color: THRESHOLD_COLOR }],
    [t],
  );
  const chart = (
    testId: string,
    title: ReactNode,
    data: ChartSeries[],
    format: (v: number) => string,
    opts: { percent?: boolean; fit?: boolean; bytes?: boolean; subtitle?: ReactNode } = {},
  ) => (
    <ChartCard title={title} subtitle={opts.subtitle}>
      <TimeSeriesChart
        data-testid={testId}
        label={typeof title === "string" ? title : undefined}
        times={charts.times}
        series={data}
        formatValue={format}
        formatAxis={opts.bytes ? (v) => `${formatBytesCompact(v)}/s` : opts.percent ? pct : undefined}
        yIncrs={opts.bytes ? BINARY_INCRS : opts.percent ? PERCENT_INCRS : undefined}
        yMin={opts.percent ? 0 : undefined}
        yMax={opts.percent ? 100 : undefined}
        yRangeOf={opts.fit ? fitToData : undefined}
        thresholds={opts.percent ? threshold : undefined}
        xMin={series.from}
        xMax={series.to}
        height={190}
      />
    </ChartCard>
  );
  const resolution = series.step === 0 ? "raw" : series.step < 3_600_000 ? "minute" : "hour";
  return (
    <div className="space-y-3">
      <p className="text-xs text-slate-500" data-testid="agent-series-resolution">
        {t(`agents.resolution.${resolution}`)}
      </p>
      <div className="grid gap-4 lg:grid-cols-2" data-testid="agent-charts">
        {chart("chart-cpu", t("charts.cpu"), charts.cpu, pctLegend, { percent: true })}
        {chart("chart-memory", t("charts.memory"), charts.memory, pctLegend, { percent: true, fit: true })}
        {chart("chart-network", t("charts.network"), charts.network, (v) => formatRate(v), { bytes: true })}
        {chart("chart-load", t("charts.load"), charts.load, (v) => formatLoad(v))}
        {charts.disks.map((d) => (
          <div key={d.mountPoint} className="min-w-0">
            {chart(`chart-disk-${diskSlug(d.mountPoint)}`, t("charts.disk", { mountPoint: d.mountPoint }), d.series, pctLegend, {
              percent: true,
              fit: true,
              subtitle: latest?.disks.find((x) => x.mountPoint === d.mountPoint)?.device,
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

export default function AgentDetail() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { id } = useParams<{ id: string }>();
  const agentId = Number(id);
  const [agent, setAgent] = useState<PublicAgent | null>(null);
  const [error, setError] = useState("");
  const [range, setRange] = useState<SeriesRange>("1h");
  const [series, setSeries] = useState<AgentSeries | null>(null);
  const shownRange = useRef(range); // a late answer for a range no longer selected is dropped
  shownRange.current = range;
  const [seriesError, setSeriesError] = useState("");
  useDocumentTitle(agent ? `${agent.name} · ${t("agents.detailTitle")}` : t("agents.detailTitle"));

  const loadAgent = useCallback(
    async (first: boolean) => {
      try {
        const reply = await getAgent(agentId);
        setAgent(reply.agent);
        setError("");
      } catch (err) {
        // A failed refresh keeps what is shown; only the first load (or a deletion elsewhere) shows the error.
        if (first || (err as { status?: number }).status === 404) setError(errorMessage(err, t("agents.fetchAgentFailed")));
      }
    },
    [agentId, t],
  );

  const loadSeries = useCallback(async () => {
    try {
      const reply = await getAgentSeries(agentId, range);
      if (shownRange.current !== range) return;
      setSeries(reply.series);
      setSeriesError("");
    } catch (err) {
      if (shownRange.current === range) setSeriesError(errorMessage(err, t("agents.seriesFailed")));
    }
  }, [agentId, range, t]);

  useEffect(() => {
    setAgent(null);
    setError("");
    if (!Number.isInteger(agentId) || agentId <= 0) {
      setError(t("errors.AGENT_NOT_FOUND"));
      return;
    }
    void loadAgent(true);
  }, [agentId, loadAgent, t]);

  useEffect(() => {
    if (!Number.isInteger(agentId) || agentId <= 0) return;
    setSeries(null);
    setSeriesError("");
    void loadSeries();
  }, [agentId, loadSeries]);

  usePolling(() => loadAgent(false), AGENT_POLL_MS, agent !== null && !error);
  useLive("maintenance.change", (e) => {
    const on = e.agents.entered.includes(agentId) ? true : e.agents.left.includes(agentId) ? false : null;
    if (on !== null) setAgent((a) => (a ? { ...a, maintenance: on } : a));
  });
  usePolling(loadSeries, SERIES_POLL_MS[range], agent !== null && !error);

  const { ask: askDelete, deletingId, dialog: deleteDialog } = useDeleteConfirmation<PublicAgent>({
    section: "agents",
    message: (a) => t("agents.confirmDelete.message", { name: a.name }),
    remove: deleteAgent,
    onDeleted: () => navigate("/agents"),
  });

  if (error) {
    return (
      <div className="mx-auto max-w-2xl">
        <PageHeader title={t("agents.detailTitle")} />
        <Card className="flex flex-col items-center gap-4 px-6 py-12 text-center">
          <p role="alert" data-testid="agent-load-error" className="text-sm text-red-600">
            {error}
          </p>
          <ButtonLink href="/agents" variant="secondary" data-testid="agent-back">
            {t("agents.backToList")}
          </ButtonLink>
        </Card>
      </div>
    );
  }
  if (!agent) return <PageLoading />;

  return (
    <div className="space-y-8">
      <div>
        <PageHeader
          title={
            <span className="flex flex-wrap items-center gap-3">
              <span data-testid="agent-name">{agent.name}</span>
              <AgentStatusBadge status={agentDisplayStatus(agent)} data-testid={`agent-status-${agent.id}`} />
            </span>
          }
          description={[agent.hostname, agent.ips[0], agent.os].filter(Boolean).join(" · ")}
          actions={
            <>
              <ButtonLink href="/agents" variant="ghost" data-testid="agent-back">
                {t("agents.backToList")}
              </ButtonLink>
              <ButtonLink href={`/notifications?tab=agents&agent=${agent.id}`} variant="secondary" title={t("notifications.linkTitle")} data-testid="notifications-link">
                <BellIcon className="size-4" />
                {t("notifications.link")}
              </ButtonLink>
              <EditorOnly>
                <ButtonLink href={`/agents/edit/${agent.id}`} variant="secondary" data-testid={`agent-edit-${agent.id}`}>
                  {t("common.edit")}
                </ButtonLink>
                <Button variant="dangerGhost" busy={deletingId !== null} onClick={() => askDelete(agent)} data-testid={`agent-delete-${agent.id}`}>
                  {t("common.delete")}
                </Button>
              </EditorOnly>
            </>
          }
        />
        <Facts agent={agent} />
        <EscalationLine type="agent" id={agent.id} troubled={agent.status === "offline"} />
      </div>

      <OpenProblems type="agent" id={agent.id} />

      <Section title={t("agents.currentTitle")}>
        {agent.latest ? (
          <StaleValues agent={agent} notice={t("agents.stale.notice")} data-testid="agent-current-values">
            <Current sample={agent.latest} />
          </StaleValues>
        ) : (
          <Card className="p-5 sm:p-6" data-testid="agent-no-data">
            <NeverReported agent={agent} removing={deletingId !== null} onRemove={() => askDelete(agent)} />
          </Card>
        )}
      </Section>

      <ContainersSection agentId={agent.id} />

      <Section title={t("agents.historyTitle")} actions={
          <RangeTabs
            ranges={SERIES_RANGES}
            range={range}
            onChange={setRange}
            label={t("agents.range.label")}
            name={(r) => t(`agents.range.${r}`)}
            testIdPrefix="agent-range-"
          />
        } testId="agent-history">
        {seriesError && (
          <p role="alert" data-testid="agent-series-error" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-600">
            {seriesError}
          </p>
        )}
        {series ? (
          <Charts series={series} latest={agent.latest} />
        ) : (
          !seriesError && (
            <p role="status" data-testid="agent-series-loading" className="py-10 text-center text-sm text-slate-500">
              {t("agents.seriesLoading")}
            </p>
          )
        )}
      </Section>

      <Section title={t("agents.detail.export.title")} testId="agent-export">
        <Card>
          <ExportForm
            testId="agent-export"
            fetchFile={(format, from, to) => exportSamples(agent.id, format, from, to)}
            days={2} // yesterday and today: the 24 hours raw samples are kept
            intro={t("agents.detail.export.intro")}
            retention={t("agents.detail.export.retention")}
            downloaded={t("agents.detail.export.downloaded")}
            failed={t("agents.detail.export.failed")}
          />
        </Card>
      </Section>

      <MaintenancePanel target={{ type: "agent", id: agent.id, name: agent.name }} />

      {deleteDialog}
    </div>
  );
}
