// A report as a mail (scheduled monthly reports, server/reports/schedules.ts): a subject with the availability, an
// HTML body of three tables (summary, monitors, outages) and the same as plain text, both in the schedule's language
// and zone, and the two CSVs attached. Strings live here in both languages, as the notification messages' do.
import { escapeHtml } from "../notifications/providers/email";
import type { MailAttachment } from "../notifications/providers/smtp";
import { formatDuration, formatTime, translateError } from "../notifications/messages";
import type { NotificationLanguage } from "../notifications/public";
import { reportCsv } from "./csv";
import type { Report, ReportStats } from "./public";

const TEXT = {
  "en-US": {
    subject: "Vigil report: {target} — {month} — {availability}",
    heading: "Availability report: {target}",
    period: "Period",
    zone: "Time zone",
    generated: "Generated",
    fromRollups: "Computed from the hourly rollups (raw checks of the period are no longer all kept).",
    summary: "Summary",
    availability: "Availability",
    checks: "Checks",
    up: "Passed",
    down: "Failed",
    maintenanceChecks: "Checks in maintenance (left out)",
    downtime: "Downtime",
    outages: "Outages",
    mttr: "MTTR",
    mtbf: "MTBF",
    longest: "Longest outage",
    avg: "Average response",
    monitors: "Monitors",
    monitor: "Monitor",
    start: "Start",
    end: "End",
    length: "Downtime",
    cause: "Cause",
    ongoing: "ongoing",
    noOutages: "No outages.",
    noData: "no data",
    attached: "Attached: {monitors} (a row per monitor) and {outages} (a row per outage), times in UTC.",
    kinds: { monitor: "Monitor", group: "Group", tag: "Tag", "status-page": "Status page" },
  },
  "zh-CN": {
    subject: "Vigil 报告：{target} — {month} — {availability}",
    heading: "可用性报告：{target}",
    period: "时段",
    zone: "时区",
    generated: "生成时间",
    fromRollups: "按小时汇总数据计算（该时段的原始检查记录已不再全部保留）。",
    summary: "概要",
    availability: "可用率",
    checks: "检查次数",
    up: "成功",
    down: "失败",
    maintenanceChecks: "维护期间的检查（不计入）",
    downtime: "故障时长",
    outages: "故障次数",
    mttr: "平均恢复时间（MTTR）",
    mtbf: "平均故障间隔（MTBF）",
    longest: "最长故障",
    avg: "平均响应时间",
    monitors: "监控",
    monitor: "监控",
    start: "开始",
    end: "结束",
    length: "故障时长",
    cause: "原因",
    ongoing: "仍在故障",
    noOutages: "无故障。",
    noData: "无数据",
    attached: "附件：{monitors}（每个监控一行）和 {outages}（每次故障一行），时间为 UTC。",
    kinds: { monitor: "监控", group: "分组", tag: "标签", "status-page": "状态页" },
  },
} as const;

const fill = (s: string, values: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? "");

/** "99.952 %" (the report's own rounding down to three decimals), or "no data". */
export const percentText = (value: number | null, lang: NotificationLanguage) => (value === null ? TEXT[lang].noData : `${value.toFixed(3)} %`);

/** "October 2026" / "2026年10月" for "2026-10". */
export function monthName(month: string, lang: NotificationLanguage): string {
  const [y, m] = month.split("-").map(Number);
  return new Intl.DateTimeFormat(lang, { year: "numeric", month: "long", timeZone: "UTC" }).format(Date.UTC(y!, m! - 1, 1));
}

export interface ReportMail {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

/** The mail of a month's report (`report.period` is that month in the schedule's zone). */
export function reportMail(report: Report, lang: NotificationLanguage): ReportMail {
  const T = TEXT[lang];
  const zone = report.period.zone;
  const s = report.summary;
  const ms = (v: number | null) => (v === null ? "—" : `${v} ${lang === "zh-CN" ? "毫秒" : "ms"}`);
  const dur = (v: number | null) => (v === null ? "—" : formatDuration(Math.round(v / 1000), lang));
  const target = `${T.kinds[report.target.kind]} ${report.target.name}`;
  const subject = fill(T.subject, { target: report.target.name, month: monthName(report.period.label, lang), availability: percentText(s.availability, lang) });

  const summaryRows = (st: ReportStats): [string, string][] => [
    [T.availability, percentText(st.availability, lang)],
    [T.checks, `${st.checks} (${T.up} ${st.up}, ${T.down} ${st.down})`],
    [T.maintenanceChecks, String(st.maintenanceChecks)],
    [T.downtime, dur(st.downtimeMs)],
    [T.outages, String(st.outages)],
    [T.mttr, dur(st.mttrMs)],
    [T.mtbf, dur(st.mtbfMs)],
    [T.longest, dur(st.longestOutageMs)],
    [T.avg, ms(st.avgResponseTime)],
    ["p50 / p95 / p99", `${ms(st.p50)} / ${ms(st.p95)} / ${ms(st.p99)}`],
  ];
  const intro: [string, string][] = [
    [T.period, `${formatTime(report.period.from, zone)} – ${formatTime(report.period.to, zone)}`],
    [T.zone, zone],
    [T.generated, formatTime(report.generatedAt, zone)],
  ];
  const monitorHead = [T.monitor, T.availability, T.checks, T.downtime, T.outages, "p95"];
  const monitorRows = report.monitors.map((m) => [m.name, percentText(m.availability, lang), String(m.checks), dur(m.downtimeMs), String(m.outages), ms(m.p95)]);
  const names = new Map(report.monitors.map((m) => [m.id, m.name]));
  const outageHead = [T.monitor, T.start, T.end, T.length, T.cause];
  const outageRows = report.monitors
    .flatMap((m) => m.outageList)
    .sort((a, b) => a.start - b.start)
    .map((o) => [names.get(o.monitorId) ?? String(o.monitorId), formatTime(o.start, zone), o.end === null ? T.ongoing : formatTime(o.end, zone), dur(o.downtimeMs), o.cause ? translateError(o.cause, lang) : "—"]);

  const base = `vigil-report-${report.target.kind}-${report.target.ref}-${report.period.label}`.replace(/[^\w.-]+/g, "_");
  const attachments: MailAttachment[] = (["monitors", "outages"] as const).map((part) => ({
    filename: `${base}-${part}.csv`,
    content: reportCsv(report, part),
    contentType: "text/csv; charset=utf-8",
  }));
  const attached = fill(T.attached, { monitors: attachments[0]!.filename, outages: attachments[1]!.filename });

  const text = [
    fill(T.heading, { target }),
    "",
    ...intro.map(([k, v]) => `${k}: ${v}`),
    ...(report.granularity === "hour" ? [T.fromRollups] : []),
    "",
    `== ${T.summary} ==`,
    ...summaryRows(s).map(([k, v]) => `${k}: ${v}`),
    "",
    `== ${T.monitors} ==`,
    ...monitorRows.map((r) => r.join(" | ")),
    "",
    `== ${T.outages} ==`,
    ...(outageRows.length ? outageRows.map((r) => r.join(" | ")) : [T.noOutages]),
    "",
    attached,
  ].join("\n");

  const html =
    `<div style="font-family:-apple-system,'Segoe UI',Roboto,'PingFang SC','Microsoft YaHei',sans-serif;font-size:14px;color:#111827;max-width:900px">` +
    `<h2 style="margin:0 0 12px;padding-left:10px;border-left:4px solid #2563eb;font-size:18px">${escapeHtml(fill(T.heading, { target }))}</h2>` +
    pairs(intro) +
    (report.granularity === "hour" ? `<p style="color:#6b7280">${escapeHtml(T.fromRollups)}</p>` : "") +
    section(T.summary) +
    pairs(summaryRows(s)) +
    section(T.monitors) +
    table(monitorHead, monitorRows) +
    section(T.outages) +
    (outageRows.length ? table(outageHead, outageRows) : `<p>${escapeHtml(T.noOutages)}</p>`) +
    `<p style="color:#6b7280;margin-top:16px">${escapeHtml(attached)}</p></div>`;
  return { subject, text, html, attachments };
}

const CELL = "padding:4px 10px;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:top";
const section = (title: string) => `<h3 style="margin:20px 0 8px;font-size:15px">${escapeHtml(title)}</h3>`;
const pairs = (rows: [string, string][]) =>
  `<table style="border-collapse:collapse">${rows.map(([k, v]) => `<tr><th style="${CELL};color:#6b7280;font-weight:normal">${escapeHtml(k)}</th><td style="${CELL}">${escapeHtml(v)}</td></tr>`).join("")}</table>`;
const table = (head: string[], rows: string[][]) =>
  `<table style="border-collapse:collapse;width:100%"><thead><tr>${head.map((h) => `<th style="${CELL};background:#f3f4f6">${escapeHtml(h)}</th>`).join("")}</tr></thead>` +
  `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td style="${CELL}">${escapeHtml(c)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
