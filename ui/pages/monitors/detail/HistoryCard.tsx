import { useTranslation } from "react-i18next";
import type { HistoryWindow, StatusBucket } from "../../../api/monitors";
import { Card } from "../../../components/Card";
import { translateCheckError } from "../checkError";
import { formatAvailability, formatMs } from "../model";
import { Ago, MonitorStatusBadge, StatusBar } from "../parts";
import { Fact } from "../../../components/DetailParts";
import { SectionTitle } from "./layout";

/** One window's bar and figures (24 hours or 30 days). */
export function HistoryCard({ title, window, daily, testId }: { title: string; window: HistoryWindow & { buckets: StatusBucket[] }; daily: boolean; testId: string }) {
  const { t } = useTranslation();
  const dash = t("common.dash");
  const latest = window.latest;
  const availability = window.availability;
  const tone = availability === null ? "text-slate-400" : availability >= 99 ? "text-emerald-600" : availability >= 95 ? "text-amber-600" : "text-red-600";
  return (
    <Card data-testid={`history-${testId}`}>
      <SectionTitle
        actions={
          <span data-testid={`history-${testId}-availability`} className={`text-lg font-semibold tabular-nums ${tone}`}>
            {formatAvailability(availability, dash)}
          </span>
        }
      >
        {title}
      </SectionTitle>
      <div className="space-y-5 px-5 py-5 sm:px-6">
        <StatusBar
          buckets={window.buckets}
          daily={daily}
          label={t(daily ? "monitors.detail.monthBar" : "monitors.detail.dayBar")}
          startLabel={t(daily ? "monitors.detail.ago30d" : "monitors.detail.ago24h")}
          endLabel={t("monitors.detail.now")}
          data-testid={daily ? "status-bar-month" : "status-bar-day"}
        />
        {window.maintenance > 0 && (
          <p className="text-xs text-sky-700" data-testid={`history-${testId}-maintenance`}>
            {t("monitors.detail.aggregates.maintenanceLeftOut", { count: window.maintenance })}
          </p>
        )}
        <dl className="grid grid-cols-2 gap-x-4 gap-y-4 sm:grid-cols-3">
          <Fact label={t("monitors.detail.aggregates.checks")} testId={`history-${testId}-checks`}>
            <span className="font-semibold tabular-nums">{window.total.toLocaleString()}</span>
            <span className="ml-1.5 text-xs text-slate-500">{t("monitors.detail.aggregates.upDown", { up: window.up, down: window.down })}</span>
          </Fact>
          <Fact label={t("monitors.detail.aggregates.avg")} testId={`history-${testId}-avg`}>
            <span className="tabular-nums">{formatMs(window.avgResponseTime, dash)}</span>
          </Fact>
          <Fact label={`${t("monitors.detail.aggregates.min")} / ${t("monitors.detail.aggregates.max")}`} testId={`history-${testId}-minmax`}>
            <span className="tabular-nums">
              {formatMs(window.minResponseTime, dash)} / {formatMs(window.maxResponseTime, dash)}
            </span>
          </Fact>
          <Fact label={t("monitors.detail.aggregates.records")} testId={`history-${testId}-records`}>
            <span className="tabular-nums">{window.recordCount.toLocaleString()}</span>
          </Fact>
          <Fact label={t("monitors.detail.aggregates.latest")} testId={`history-${testId}-latest`}>
            {latest ? (
              <span className="inline-flex flex-wrap items-center gap-1.5">
                <MonitorStatusBadge status={latest.status} />
                <span className="text-xs text-slate-500">
                  {[latest.httpStatus, formatMs(latest.responseTime, "")].filter(Boolean).join(" · ")} · <Ago at={latest.time} />
                </span>
              </span>
            ) : (
              t("monitors.detail.aggregates.none")
            )}
          </Fact>
          <Fact label={t("monitors.detail.aggregates.lastError")} testId={`history-${testId}-error`}>
            {window.error ? (
              <span>
                <span className="text-red-700">{translateCheckError(t, window.error.message)}</span>
                <span className="ml-1.5 text-xs text-slate-500">
                  <Ago at={window.error.time} />
                </span>
              </span>
            ) : (
              t("monitors.detail.aggregates.none")
            )}
          </Fact>
        </dl>
      </div>
    </Card>
  );
}
