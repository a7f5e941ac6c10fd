// What subscribers receive, in the instance's notification language and zone: the confirmation mail, incident updates
// and maintenance notices. Every notice ends with its unsubscribe link (the List-Unsubscribe headers carry it too).
import type { PublicIncident } from "../incidents/public";
import type { PublicMaintenance } from "../maintenance/public";
import { COLOURS, html } from "../notifications/providers/email";
import { formatTime } from "../notifications/messages";
import type { NotificationLanguage } from "../notifications/public";

const TEXT = {
  "en-US": {
    confirmSubject: "Confirm your subscription to {page}",
    confirmLines: [
      "You asked to receive incident and maintenance updates about {page} at this address.",
      "Confirm within 24 hours: {link}",
      "If it was not you, ignore this mail: nothing more will be sent.",
    ],
    impact: { minor: "Minor", major: "Major", critical: "Critical" },
    state: { investigating: "Investigating", identified: "Identified", monitoring: "Monitoring", resolved: "Resolved" },
    incidentSubject: "[{page}] {title}: {state}",
    impactLabel: "Impact",
    maintenanceSubject: "[{page}] Scheduled maintenance: {title}",
    when: "When",
    until: "until ended",
    page: "Status page",
    unsubscribe: "Unsubscribe: {link}",
  },
  "zh-CN": {
    confirmSubject: "确认订阅 {page}",
    confirmLines: ["你请求在此邮箱接收 {page} 的事件与维护通知。", "请在 24 小时内确认：{link}", "如果不是你本人操作，请忽略此邮件：不会再发送任何邮件。"],
    impact: { minor: "轻微", major: "严重", critical: "重大" },
    state: { investigating: "调查中", identified: "已确认原因", monitoring: "观察中", resolved: "已解决" },
    incidentSubject: "[{page}] {title}：{state}",
    impactLabel: "影响",
    maintenanceSubject: "[{page}] 计划维护：{title}",
    when: "时间",
    until: "直到手动结束",
    page: "状态页",
    unsubscribe: "退订：{link}",
  },
} as const;

const fill = (s: string, values: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? "");

export interface Mail {
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

function mail(subject: string, lines: string[], severity: keyof typeof COLOURS, headers?: Record<string, string>): Mail {
  return { subject, text: [subject, "", ...lines].join("\n"), html: html(subject, lines, COLOURS[severity]), headers };
}

/** A notice as stored (subject and lines), before each subscriber's unsubscribe line is added. */
export interface Notice {
  subject: string;
  lines: string[];
}

/** Stands for the confirmation link's token in a queued confirmation mail: the worker makes it when it sends. */
const TOKEN = "⟨token⟩";

/** The confirmation mail as queued, its link's token still to come. */
export function confirmNotice(page: string, baseUrl: string, lang: NotificationLanguage): Notice {
  const T = TEXT[lang];
  const link = `${baseUrl}/status/confirm?token=${TOKEN}`;
  return { subject: fill(T.confirmSubject, { page }), lines: T.confirmLines.map((l) => fill(l, { page, link })) };
}

/** A queued confirmation mail with its link's token. */
export function confirmMail(notice: Notice, token: string): Mail {
  return mail(notice.subject, notice.lines.map((l) => l.replace(TOKEN, token)), "info");
}

export function incidentNotice(page: string, pageUrl: string, incident: PublicIncident, update: { state: string; message: string; at: number }, lang: NotificationLanguage, timeZone: string): Notice {
  const T = TEXT[lang];
  const state = T.state[update.state as keyof typeof T.state] ?? update.state;
  return {
    subject: fill(T.incidentSubject, { page, title: incident.title, state }),
    lines: [...update.message.split("\n"), "", `${T.impactLabel}: ${T.impact[incident.impact]}`, `${formatTime(update.at, timeZone)}`, `${T.page}: ${pageUrl}`],
  };
}

export function maintenanceNotice(page: string, pageUrl: string, window: PublicMaintenance, lang: NotificationLanguage, timeZone: string): Notice | null {
  const T = TEXT[lang];
  const occurrence = window.current ?? window.next;
  if (!occurrence) return null; // nothing ahead: no notice
  const end = occurrence.end === null ? T.until : formatTime(occurrence.end, timeZone);
  return {
    subject: fill(T.maintenanceSubject, { page, title: window.title }),
    lines: [...(window.description ? window.description.split("\n") : []), `${T.when}: ${formatTime(occurrence.start, timeZone)} – ${end}`, `${T.page}: ${pageUrl}`],
  };
}

/** A notice for one subscriber: its own unsubscribe link in the text and in the one-click headers (RFC 8058). */
export function noticeMail(notice: Notice, unsubscribeLink: string, oneClickUrl: string, lang: NotificationLanguage, severity: keyof typeof COLOURS = "info"): Mail {
  const lines = [...notice.lines, "", fill(TEXT[lang].unsubscribe, { link: unsubscribeLink })];
  return mail(notice.subject, lines, severity, { "List-Unsubscribe": `<${oneClickUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
}
