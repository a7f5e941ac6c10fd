// /reports: an availability report of a monitor, a group, a tag or a status page over a month, quarter, year or
// range of days in a time zone. The choice lives in the address (/reports?kind=monitor&ref=3&period=2026-10&zone=…),
// so a report can be linked to, and printing the page gives a clean document (navigation and the form stay off paper).
//
// data-testids: `report-form`, `report-kind`, `report-target`, `report-period-kind`, `report-month`, `report-quarter`,
//   `report-year`, `report-from`, `report-to`, `report-zone`, `report-show`, plus ReportView's.
import { useCallback, useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearch } from "wouter";
import { listMonitorNames } from "../../api/monitors";
import { getReport, type ReportTargetKind } from "../../api/reports";
import { listStatusPages } from "../../api/status";
import { Button } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { Field, SelectInput, TextInput } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { browserZone, choiceOf, defaultChoice, periodText, type PeriodChoice, type PeriodKind } from "./model";
import { ReportView } from "./ReportView";
import { Schedules } from "./Schedules";

const KINDS: ReportTargetKind[] = ["monitor", "group", "tag", "status-page"];
const PERIOD_KINDS: PeriodKind[] = ["month", "quarter", "year", "range"];

interface Targets {
  monitor: { ref: string; label: string }[];
  group: { ref: string; label: string }[];
  tag: { ref: string; label: string }[];
  "status-page": { ref: string; label: string }[];
}

async function loadTargets(): Promise<Targets> {
  const [{ monitors }, { pages }] = await Promise.all([listMonitorNames(), listStatusPages()]);
  const byName = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);
  const tags = [...new Set(monitors.flatMap((m) => m.tags.map((t) => t.split(":")[0]!)))].sort();
  return {
    monitor: monitors.filter((m) => m.type !== "group").map((m) => ({ ref: String(m.id), label: m.name })).sort(byName),
    group: monitors.filter((m) => m.type === "group").map((m) => ({ ref: String(m.id), label: m.name })).sort(byName),
    tag: tags.map((t) => ({ ref: t, label: t })),
    "status-page": pages.map((p) => ({ ref: p.slug, label: `${p.title || p.slug} (/${p.slug})` })),
  };
}

export default function Reports() {
  const { t } = useTranslation();
  useDocumentTitle(t("reports.title"));
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const asked = { kind: params.get("kind") as ReportTargetKind | null, ref: params.get("ref"), period: params.get("period"), zone: params.get("zone") };
  const targets = useLoad(useCallback(loadTargets, []), t("reports.targetsFailed"));

  const [kind, setKind] = useState<ReportTargetKind>(asked.kind && KINDS.includes(asked.kind) ? asked.kind : "monitor");
  const [ref, setRef] = useState(asked.ref ?? "");
  const [choice, setChoice] = useState<PeriodChoice>(() => (asked.period && choiceOf(asked.period)) || defaultChoice());
  const [zone, setZone] = useState(asked.zone || browserZone());
  const set = (patch: Partial<PeriodChoice>) => setChoice((c) => ({ ...c, ...patch }));
  const options = targets.state.phase === "loaded" ? targets.state.data[kind] : [];
  const chosenRef = options.some((o) => o.ref === ref) ? ref : (options[0]?.ref ?? "");

  const show = (e: FormEvent) => {
    e.preventDefault();
    if (!chosenRef) return;
    const q = new URLSearchParams({ kind, ref: chosenRef, period: periodText(choice), zone: zone.trim() || browserZone() });
    navigate(`/reports?${q}`);
  };

  const ready = asked.kind && asked.ref && asked.period && asked.zone;
  const key = ready ? `${asked.kind}|${asked.ref}|${asked.period}|${asked.zone}` : "";
  const fetchReport = useMemo(
    () => async () => (ready ? (await getReport(asked.kind!, asked.ref!, asked.period!, asked.zone!)).report : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );
  const report = useLoad(fetchReport, t("reports.failed"));

  return (
    <div>
      <div className="print:hidden">
        <PageHeader title={t("reports.title")} description={t("reports.subtitle")} />
        <Card className="mb-6">
          <form className="grid gap-4 px-5 py-5 sm:grid-cols-2 sm:px-6 lg:grid-cols-4" onSubmit={show} data-testid="report-form">
            <Field label={t("reports.kind")}>
              {(id) => (
                <SelectInput id={id} value={kind} onChange={(e) => setKind(e.target.value as ReportTargetKind)} data-testid="report-kind">
                  {KINDS.map((k) => <option key={k} value={k}>{t(`reports.kinds.${k}`)}</option>)}
                </SelectInput>
              )}
            </Field>
            <Field label={t("reports.target")} error={targets.state.phase === "loaded" && options.length === 0 ? t("reports.noTargets") : undefined}>
              {(id) => (
                <SelectInput id={id} value={chosenRef} onChange={(e) => setRef(e.target.value)} data-testid="report-target">
                  {options.map((o) => <option key={o.ref} value={o.ref}>{o.label}</option>)}
                </SelectInput>
              )}
            </Field>
            <Field label={t("reports.period")}>
              {(id) => (
                <SelectInput id={id} value={choice.kind} onChange={(e) => set({ kind: e.target.value as PeriodKind })} data-testid="report-period-kind">
                  {PERIOD_KINDS.map((k) => <option key={k} value={k}>{t(`reports.periods.${k}`)}</option>)}
                </SelectInput>
              )}
            </Field>
            <PeriodInputs choice={choice} set={set} />
            <Field label={t("reports.zone")} hint={t("reports.zoneHint")}>
              {(id) => <TextInput id={id} value={zone} onChange={(e) => setZone(e.target.value)} data-testid="report-zone" />}
            </Field>
            <div className="flex items-end">
              <Button type="submit" disabled={!chosenRef} data-testid="report-show">{t("reports.show")}</Button>
            </div>
          </form>
        </Card>
      </div>
      {targets.state.phase === "error" && <LoadError message={targets.state.message} onRetry={targets.reload} data-testid="report-targets-error" />}
      {ready && report.state.phase === "loading" && <LoadingMessage data-testid="report-loading">{t("reports.loading")}</LoadingMessage>}
      {report.state.phase === "error" && <LoadError message={report.state.message} onRetry={report.reload} data-testid="report-error" />}
      {report.state.phase === "loaded" && report.state.data && <ReportView report={report.state.data} />}
      <Schedules kind={kind} targetRef={chosenRef} zone={zone.trim() || browserZone()} />
    </div>
  );
}

function PeriodInputs({ choice, set }: { choice: PeriodChoice; set: (patch: Partial<PeriodChoice>) => void }) {
  const { t } = useTranslation();
  if (choice.kind === "month") {
    return <Field label={t("reports.periods.month")}>{(id) => <TextInput id={id} type="month" value={choice.month} onChange={(e) => set({ month: e.target.value })} data-testid="report-month" />}</Field>;
  }
  if (choice.kind === "quarter") {
    const [year, q] = choice.quarter.split("-Q");
    return (
      <Field label={t("reports.periods.quarter")}>
        {(id) => (
          <div className="flex gap-2">
            <TextInput id={id} className="min-w-0" type="number" min={2000} max={9999} value={year} onChange={(e) => set({ quarter: `${e.target.value}-Q${q}` })} data-testid="report-year" />
            <SelectInput value={q} onChange={(e) => set({ quarter: `${year}-Q${e.target.value}` })} aria-label={t("reports.periods.quarter")} data-testid="report-quarter">
              {[1, 2, 3, 4].map((n) => <option key={n} value={String(n)}>Q{n}</option>)}
            </SelectInput>
          </div>
        )}
      </Field>
    );
  }
  if (choice.kind === "year") {
    return <Field label={t("reports.periods.year")}>{(id) => <TextInput id={id} type="number" min={2000} max={9999} value={choice.year} onChange={(e) => set({ year: e.target.value })} data-testid="report-year" />}</Field>;
  }
  return (
    <Field label={t("reports.days")}>
      {(id) => (
        <div className="flex gap-2">
          <TextInput id={id} className="min-w-0" type="date" value={choice.from} onChange={(e) => set({ from: e.target.value })} data-testid="report-from" />
          <TextInput className="min-w-0" type="date" value={choice.to} onChange={(e) => set({ to: e.target.value })} aria-label={t("reports.to")} data-testid="report-to" />
        </div>
      )}
    </Field>
  );
}
