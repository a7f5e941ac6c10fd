import { useTranslation } from "react-i18next";
import type { CheckResult } from "../../../api/monitors";
import { translateCheckError } from "../checkError";
import { formatMs, pingMs } from "../model";
import { Ago, MonitorStatusBadge } from "../parts";
import { Fact } from "../../../components/DetailParts";

/** The outcome of a manual check: status, HTTP status, response time, error. */
export function CheckResultPanel({ result, http }: { result: CheckResult; http: boolean }) {
  const { t } = useTranslation();
  const up = result.status === "up";
  return (
    <div
      data-testid="monitor-check-result"
      data-status={result.status}
      role="status"
      className={`rounded-xl border px-5 py-4 ${up ? "border-emerald-200 bg-emerald-50/60" : "border-red-200 bg-red-50/60"}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="text-sm font-semibold text-slate-900">{t("monitors.detail.checkResult")}</span>
        <MonitorStatusBadge status={result.status} data-testid="monitor-check-result-status" />
        <span className="text-xs text-slate-500">
          <Ago at={result.time} />
        </span>
      </div>
      <dl className="mt-3 grid gap-4 sm:grid-cols-3">
        {http && (
          <Fact label={t("monitors.detail.httpStatus")} testId="monitor-check-result-http">
            <span className="tabular-nums">{result.httpStatus ?? t("common.dash")}</span>
          </Fact>
        )}
        <Fact label={t("monitors.detail.responseTime")} testId="monitor-check-result-time">
          {result.ping ? (
            // A ping's round trips are often under a millisecond: shown to the hundredth, with the loss.
            <span className="block tabular-nums">
              {t("monitors.detail.info.pingRtt", { min: pingMs(result.ping.min, t("common.dash")), avg: pingMs(result.ping.avg, t("common.dash")), max: pingMs(result.ping.max, t("common.dash")) })}
              <span className="block text-xs text-slate-500">{t("monitors.detail.info.pingLoss", { loss: result.ping.loss, received: result.ping.received, sent: result.ping.sent })}</span>
            </span>
          ) : (
            <span className="tabular-nums">{formatMs(result.responseTime, t("common.dash"))}</span>
          )}
        </Fact>
        <Fact label={t("monitors.detail.error")} testId="monitor-check-result-error">
          {result.error ? <span className="font-medium text-red-700">{translateCheckError(t, result.error)}</span> : t("monitors.detail.noError")}
        </Fact>
      </dl>
    </div>
  );
}
