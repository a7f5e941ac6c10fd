// One report as a document: what it covers, the summary, a row per monitor, then every outage, maintenance window,
// incident and location. Times are shown in the report's zone. Print gives the same document without the app around it.
//
// data-testids: `report`, `report-title`, `report-granularity`, `report-rounded`, `report-summary-{field}`,
//   `report-monitors`, `report-monitor-{id}`, `report-outages`, `report-outage`, `report-maintenance`,
//   `report-incidents`, `report-locations`, `report-print`, `report-csv`, `report-outages-csv`, `report-json`.
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { downloadReportCsv, type MonitorReport, type Report, type ReportStats } from "../../api/reports";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { Fact } from "../../components/DetailParts";
import { formatDuration } from "../../components/format";
import { saveFile } from "../../components/saveFile";
import { useDurationUnits } from "../../components/time";

const SUMMARY: (keyof ReportStats)[] = ["availability", "downtimeMs", "outages", "mttrMs", "mtbfMs", "longestOutageMs", "p50", "p95", "p99"];

function useFormats(zone: string) {
  const { i18n } = useTranslation();
  const units = useDurationUnits();
  const dateTime = new Intl.DateTimeFormat(i18n.language, { timeZone: zone, year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false });
  const date = new Intl.DateTimeFormat(i18n.language, { timeZone: zone, year: "numeric", month: "short", day: "numeric" });
  return {
    at: (ms: number) => dateTime.format(ms),
    day: (ms: number) => date.format(ms),
    duration: (ms: number | null) => (ms === null ? "-" : formatDuration(Math.round(ms / 1000), units)),
    percent: (p: number | null) => (p === null ? "-" : `${p.toFixed(3)} %`),
    ms: (v: number | null) => (v === null ? "-" : `${v} ms`),
  };
}

type Formats = ReturnType<typeof useFormats>;

function statText(f: Formats, key: keyof ReportStats, s: ReportStats): string {
  const v = s[key];
  if (key === "availability") return f.percent(v);
  if (key.endsWith("Ms")) return f.duration(v);
  if (key === "p50" || key === "p95" || key === "p99" || key === "avgResponseTime") return f.ms(v);
  return String(v ?? "-");
}

export function ReportView({ report }: { report: Report }) {
  const { t } = useTranslation();
  const f = useFormats(report.period.zone);
  const [busy, setBusy] = useState(false);
  const { target, period } = report;
  const csv = async (part: "monitors" | "outages") => {
    setBusy(true);
    try {
      const { blob, fileName } = await downloadReportCsv(target.kind, target.ref, period.label, period.zone, part);
      saveFile(blob, fileName);
    } catch (err) {
      toast.error(errorMessage(err, t("reports.failed")));
    } finally {
      setBusy(false);
    }
  };
  const json = () => saveFile(new Blob([JSON.stringify(report, null, 2)], { type: "application/json" }), `vigil-report-${target.kind}-${target.ref}-${period.label}.json`);
  const outages = report.monitors.flatMap((m) => m.outageList.map((o) => ({ ...o, name: m.name }))).sort((a, b) => a.start - b.start);
  const maintenance = report.monitors.flatMap((m) => m.maintenance.map((w) => ({ ...w, name: m.name })));
  const incidents = [...new Map(report.monitors.flatMap((m) => m.incidents).map((i) => [i.id, i])).values()];
  const located = report.monitors.filter((m) => m.locations.length > 1);

  return (
    <article className="space-y-6 print:space-y-4" data-testid="report">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-xl font-semibold text-slate-900" data-testid="report-title">
            {t(`reports.kinds.${target.kind}`)}: {target.name}
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {t("reports.covers", { from: f.day(period.from), to: f.day(period.to - 1), zone: period.zone })}
          </p>
          <p className="mt-1 text-xs text-slate-500" data-testid="report-granularity">
            {t(report.granularity === "checks" ? "reports.fromChecks" : "reports.fromRollups")} {t("reports.percentileNote")}
          </p>
          {report.roundedToHour && <p className="mt-1 text-xs text-amber-700" data-testid="report-rounded">{t("reports.rounded")}</p>}
          <p className="mt-1 text-xs text-slate-400">{t("reports.generated", { at: f.at(report.generatedAt) })}</p>
        </div>
        <div className="flex flex-wrap gap-2 print:hidden">
          <Button variant="secondary" onClick={() => window.print()} data-testid="report-print">{t("reports.print")}</Button>
          <Button variant="secondary" busy={busy} onClick={() => void csv("monitors")} data-testid="report-csv">{t("reports.csv")}</Button>
          <Button variant="secondary" busy={busy} onClick={() => void csv("outages")} data-testid="report-outages-csv">{t("reports.outagesCsv")}</Button>
          <Button variant="secondary" onClick={json} data-testid="report-json">{t("reports.json")}</Button>
        </div>
      </header>

      <Card className="px-5 py-5 sm:px-6 print:shadow-none">
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
          {SUMMARY.map((key) => (
            <Fact key={key} label={t(`reports.stats.${key}`)} testId={`report-summary-${key}`}>{statText(f, key, report.summary)}</Fact>
          ))}
        </dl>
        {report.monitors.length > 1 && <p className="mt-3 text-xs text-slate-500">{t("reports.summaryNote")}</p>}
      </Card>

      <Section title={t("reports.monitors")} testId="report-monitors">
        <Table head={[t("reports.monitor"), ...(["availability", "checks", "downtimeMs", "outages", "mttrMs", "p95"] as const).map((k) => t(`reports.stats.${k}`))]}>
          {report.monitors.map((m: MonitorReport) => (
            <tr key={m.id} data-testid={`report-monitor-${m.id}`}>
              <Td>{m.name}</Td>
              <Td>{f.percent(m.availability)}</Td>
              <Td>{m.checks}{m.maintenanceChecks > 0 && <span className="text-slate-400"> (+{m.maintenanceChecks} {t("reports.inMaintenance")})</span>}</Td>
              <Td>{f.duration(m.downtimeMs)}</Td>
              <Td>{m.outages}</Td>
              <Td>{f.duration(m.mttrMs)}</Td>
              <Td>{f.ms(m.p95)}</Td>
            </tr>
          ))}
        </Table>
      </Section>

      <Section title={t("reports.outages")} testId="report-outages" empty={outages.length === 0 ? t("reports.noOutages") : null}>
        <Table head={[t("reports.monitor"), t("reports.start"), t("reports.end"), t("reports.stats.downtimeMs"), t("reports.cause")]}>
          {outages.map((o) => (
            <tr key={`${o.monitorId}-${o.start}`} data-testid="report-outage">
              <Td>{o.name}</Td>
              <Td>{f.at(o.start)}</Td>
              <Td>{o.end === null ? t("reports.ongoing") : f.at(o.end)}</Td>
              <Td>{f.duration(o.downtimeMs)}{o.maintenanceMs > 0 && <span className="text-slate-400"> ({t("reports.minusMaintenance", { time: f.duration(o.maintenanceMs) })})</span>}</Td>
              <Td>{o.cause ?? "-"}</Td>
            </tr>
          ))}
        </Table>
      </Section>

      <Section title={t("reports.maintenance")} testId="report-maintenance" empty={maintenance.length === 0 ? t("reports.noMaintenance") : null}>
        <Table head={[t("reports.monitor"), t("reports.window"), t("reports.start"), t("reports.end")]}>
          {maintenance.map((w) => (
            <tr key={`${w.name}-${w.windowId}-${w.start}`}><Td>{w.name}</Td><Td>{w.title}</Td><Td>{f.at(w.start)}</Td><Td>{f.at(w.end)}</Td></tr>
          ))}
        </Table>
      </Section>

      <Section title={t("reports.incidents")} testId="report-incidents" empty={incidents.length === 0 ? t("reports.noIncidents") : null}>
        <Table head={[t("reports.incident"), t("reports.start"), t("reports.resolved")]}>
          {incidents.map((i) => (
            <tr key={i.id}><Td>{i.title}</Td><Td>{f.at(i.createdAt)}</Td><Td>{i.resolvedAt === null ? t("reports.ongoing") : f.at(i.resolvedAt)}</Td></tr>
          ))}
        </Table>
      </Section>

      {located.length > 0 && (
        <Section title={t("reports.locations")} testId="report-locations">
          <p className="px-5 pt-3 text-xs text-slate-500 sm:px-6">{t("reports.locationsNote")}</p>
          <Table head={[t("reports.monitor"), t("reports.location"), t("reports.stats.checks"), t("reports.stats.availability"), t("reports.stats.p95")]}>
            {located.flatMap((m) =>
              m.locations.map((l) => (
                <tr key={`${m.id}-${l.agentId}`}><Td>{m.name}</Td><Td>{l.agentId === 0 ? t("reports.server") : l.name}</Td><Td>{l.checks}</Td><Td>{f.percent(l.availability)}</Td><Td>{f.ms(l.p95)}</Td></tr>
              )),
            )}
          </Table>
        </Section>
      )}
    </article>
  );
}

function Section({ title, testId, empty = null, children }: { title: string; testId: string; empty?: string | null; children: ReactNode }) {
  return (
    <Card className="overflow-hidden print:break-inside-avoid print:shadow-none" data-testid={testId}>
      <h3 className="border-b border-slate-100 px-5 py-3 text-sm font-semibold text-slate-900 sm:px-6">{title}</h3>
      {empty ? <p className="px-5 py-4 text-sm text-slate-500 sm:px-6">{empty}</p> : children}
    </Card>
  );
}

function Table({ head, children }: { head: string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>{head.map((h) => <th key={h} className="px-4 py-2 font-medium">{h}</th>)}</tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

const Td = ({ children }: { children: ReactNode }) => <td className="px-4 py-2 align-top text-slate-700">{children}</td>;
