import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { PublicMonitor } from "../../../api/monitors";
import { Card } from "../../../components/Card";
import { TagChip } from "../../../components/Tag";
import { Time, useClock } from "../../../components/time";
import { hasTimeout } from "../formModel";
import { formatMs, pingMs, tlsExpiry } from "../model";
import { Ago } from "../parts";
import { Fact } from "../../../components/DetailParts";
import { DependsOnFact } from "./Dependencies";
import { SectionTitle } from "./layout";
import { intervalText } from "../intervals";

function TlsExpiry({ monitor }: { monitor: PublicMonitor }) {
  const { t, i18n } = useTranslation();
  const now = useClock();
  if (!monitor.url.toLowerCase().startsWith("https:")) return <>{t("monitors.detail.info.tlsNotHttps")}</>;
  if (monitor.tlsExpiresAt === null) return <>{t("monitors.detail.info.tlsUnknown")}</>;
  const { days, level } = tlsExpiry(monitor.tlsExpiresAt, now);
  const date = new Intl.DateTimeFormat(i18n.language, { year: "numeric", month: "short", day: "numeric" }).format(monitor.tlsExpiresAt);
  return (
    <span className="space-y-1">
      <span className="block">
        {date}
        {level !== "expired" && <span className="ml-1.5 text-slate-500">({t("monitors.detail.info.tlsDaysLeft", { count: days })})</span>}
      </span>
      {level !== "ok" && (
        <span data-testid="monitor-tls-warning" className={`block text-xs font-medium ${level === "expired" ? "text-red-600" : "text-amber-700"}`}>
          {level === "expired" ? t("monitors.detail.info.tlsExpired") : t("monitors.detail.info.tlsWarning", { count: days })}
        </span>
      )}
    </span>
  );
}

/** The facts of a type: http's request and assertions, tcp's host and port, dns's question, push's grace. */
function TypeFacts({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  const none = t("monitors.detail.info.none");
  const off = t("monitors.detail.info.off");
  const mono = (text: ReactNode) => <span className="font-mono">{text}</span>;
  switch (monitor.type) {
    case "http":
      return (
        <>
          <Fact label={t("monitors.detail.info.method")} testId="monitor-info-method">
            {mono(monitor.method)}
          </Fact>
          <Fact label={t("monitors.detail.info.expectedStatus")} testId="monitor-info-expected">
            {mono(monitor.expectedStatus)}
          </Fact>
          <Fact label={t("monitors.detail.info.redirects")} testId="monitor-info-redirects">
            {monitor.followRedirects ? t("monitors.detail.info.follow") : t("monitors.detail.info.noFollow")}
          </Fact>
          <Fact label={t("monitors.detail.info.tls")} testId="monitor-info-tls">
            <TlsExpiry monitor={monitor} />
          </Fact>
          <Fact label={t("monitors.detail.info.keyword")} testId="monitor-info-keyword">
            {monitor.keyword === null ? (
              none
            ) : (
              <span className="space-y-0.5">
                <span className="block">
                  {t(monitor.keywordInvert ? "monitors.detail.info.mustNotContain" : "monitors.detail.info.mustContain")}{" "}
                  <span className="rounded bg-slate-100 px-1 font-mono">{monitor.keyword}</span>
                </span>
                <span className="block text-xs text-slate-500">
                  {t(monitor.keywordCaseSensitive ? "monitors.detail.info.caseSensitive" : "monitors.detail.info.anyCase")}
                </span>
              </span>
            )}
          </Fact>
          <Fact label={t("monitors.detail.info.jsonPath")} testId="monitor-info-jsonpath">
            {monitor.jsonPath === null ? none : mono(monitor.jsonPath)}
          </Fact>
          <Fact label={t("monitors.detail.info.maxResponseTime")} testId="monitor-info-max-response-time">
            {monitor.maxResponseTime === null ? off : <span className="tabular-nums">{formatMs(monitor.maxResponseTime)}</span>}
          </Fact>
          <Fact label={t("monitors.detail.info.tlsExpiryDays")} testId="monitor-info-tls-expiry-days">
            {monitor.tlsExpiryDays === null ? off : t("monitors.detail.info.tlsExpiryWithin", { count: monitor.tlsExpiryDays })}
          </Fact>
          <Fact label={t("monitors.detail.info.ignoreTls")} testId="monitor-info-ignore-tls">
            {monitor.ignoreTls ? t("monitors.detail.info.tlsIgnored") : t("monitors.detail.info.tlsRefused")}
          </Fact>
          <Fact label={t("monitors.detail.info.connection")} testId="monitor-info-fresh-connection">
            {monitor.freshConnection ? t("monitors.detail.info.connectionFresh") : t("monitors.detail.info.connectionReused")}
          </Fact>
        </>
      );
    case "tcp":
      return (
        <>
          <Fact label={t("monitors.detail.info.host")} testId="monitor-info-host">
            {mono(monitor.host)}
          </Fact>
          <Fact label={t("monitors.detail.info.port")} testId="monitor-info-port">
            {mono(monitor.port ?? t("common.dash"))}
          </Fact>
        </>
      );
    case "dns":
      return (
        <>
          <Fact label={t("monitors.detail.info.dnsName")} testId="monitor-info-dns-name">
            {mono(monitor.host)}
          </Fact>
          <Fact label={t("monitors.detail.info.dnsRecordType")} testId="monitor-info-dns-record">
            {mono(monitor.dnsRecordType)}
          </Fact>
          <Fact label={t("monitors.detail.info.dnsResolver")} testId="monitor-info-dns-resolver">
            {monitor.dnsResolver === null ? t("monitors.detail.info.systemResolver") : mono(monitor.dnsResolver)}
          </Fact>
          <Fact label={t("monitors.detail.info.dnsExpected")} testId="monitor-info-dns-expected">
            {monitor.dnsExpected === null ? t("monitors.detail.info.anyAnswer") : mono(monitor.dnsExpected)}
          </Fact>
        </>
      );
    case "ping": {
      const p = monitor.ping;
      const ms = (v: number | null) => pingMs(v, t("common.dash"));
      return (
        <>
          <Fact label={t("monitors.detail.info.host")} testId="monitor-info-host">
            {mono(monitor.host)}
          </Fact>
          <Fact label={t("monitors.detail.info.pingPackets")} testId="monitor-info-ping-packets">
            {t("monitors.detail.info.pingPacketsValue", { count: monitor.pingCount, family: t(`monitors.form.pingFamilies.${monitor.pingFamily}`) })}
          </Fact>
          <Fact label={t("monitors.detail.info.pingVerdict")} testId="monitor-info-ping-verdict">
            {t("monitors.detail.info.pingVerdictValue", { loss: monitor.pingLossThreshold })}
            {monitor.maxResponseTime !== null && <span className="block text-xs text-slate-500">{t("monitors.detail.info.pingMaxRtt", { ms: formatMs(monitor.maxResponseTime) })}</span>}
          </Fact>
          <Fact label={t("monitors.detail.info.pingLatest")} testId="monitor-info-ping-latest">
            {p === null ? (
              t("monitors.detail.info.none")
            ) : (
              <span className="block tabular-nums">
                {t("monitors.detail.info.pingRtt", { min: ms(p.min), avg: ms(p.avg), max: ms(p.max) })}
                <span className="block text-xs text-slate-500">{t("monitors.detail.info.pingLoss", { loss: p.loss, received: p.received, sent: p.sent })}</span>
              </span>
            )}
          </Fact>
        </>
      );
    }
    case "push":
      return (
        <>
          <Fact label={t("monitors.detail.info.pushGrace")} testId="monitor-info-push-grace">
            {t("monitors.detail.info.seconds", { count: monitor.pushGrace })}
          </Fact>
          <Fact label={t("monitors.detail.info.lastPush")} testId="monitor-info-last-push">
            <Ago at={monitor.lastPushAt} never={t("monitors.detail.push.never")} />
          </Fact>
        </>
      );
  }
}

export function DetailsCard({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  const none = t("monitors.detail.info.none");
  return (
    <Card data-testid="monitor-info">
      <SectionTitle>{t("monitors.detail.info.title")}</SectionTitle>
      <dl className="grid gap-x-6 gap-y-5 px-5 py-5 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <Fact label={t("monitors.detail.info.type")} testId="monitor-info-type">
          {t(`monitors.types.${monitor.type}`)}
        </Fact>
        <Fact label={t("monitors.detail.info.interval")} testId="monitor-info-interval">
          {t("monitors.detail.info.every", { every: intervalText(t, monitor.intervalSeconds) })}
        </Fact>
        {monitor.retryIntervalSeconds !== null && monitor.type !== "push" && (
          <Fact label={t("monitors.detail.info.retryInterval")} testId="monitor-info-retry-interval">
            {t("monitors.detail.info.every", { every: intervalText(t, monitor.retryIntervalSeconds) })}
          </Fact>
        )}
        {hasTimeout(monitor.type) && (
          <Fact label={t("monitors.detail.info.timeout")} testId="monitor-info-timeout">
            {t("monitors.detail.info.seconds", { count: monitor.timeout })}
          </Fact>
        )}
        <Fact label={t("monitors.detail.info.retries")} testId="monitor-info-retries">
          {monitor.retries}
        </Fact>
        <Fact label={t("monitors.detail.info.upsideDown")} testId="monitor-info-upside-down">
          {monitor.upsideDown ? t("monitors.detail.info.upsideDownOn") : t("monitors.detail.info.off")}
        </Fact>
        <DependsOnFact ids={monitor.dependsOn} />
        <TypeFacts monitor={monitor} />
        <Fact label={t("monitors.detail.info.created")} testId="monitor-info-created">
          <Time at={monitor.createdAt} />
        </Fact>
        <Fact label={t("monitors.detail.info.tags")} testId="monitor-info-tags">
          {monitor.tags.length === 0 ? (
            none
          ) : (
            <span className="flex flex-wrap gap-1">
              {monitor.tags.map((tag) => (
                <TagChip key={tag} tag={tag} />
              ))}
            </span>
          )}
        </Fact>
        {monitor.type === "http" && (
          <div className="sm:col-span-2 lg:col-span-4">
            <Fact label={t("monitors.detail.info.headers")} testId="monitor-info-headers">
              {monitor.headers.length === 0 ? (
                none
              ) : (
                <span className="block space-y-0.5 font-mono text-xs">
                  {monitor.headers.map((h, i) => (
                    <span key={i} className="block">
                      <span className="text-slate-500">{h.name}:</span> {h.value}
                    </span>
                  ))}
                </span>
              )}
            </Fact>
          </div>
        )}
        {monitor.type === "http" && monitor.body !== null && (
          <div className="sm:col-span-2 lg:col-span-4">
            <Fact label={t("monitors.detail.info.body")} testId="monitor-info-body">
              <pre className="max-h-48 overflow-auto rounded-lg bg-slate-50 p-3 font-mono text-xs text-slate-700 ring-1 ring-slate-200">{monitor.body}</pre>
            </Fact>
          </div>
        )}
      </dl>
    </Card>
  );
}
