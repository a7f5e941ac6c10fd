// What a notification says, in the instance's language: one event, or a group of them (a storm) in one message.
// Providers only lay the result out (text, markdown, card, email); they never translate.
import { settingsTypeNames } from "../monitors/types/settings-i18n";
import enUS from "../../ui/i18n/en-US";
import zhCN from "../../ui/i18n/zh-CN";
import { mapLocations, parseCheckError, SERVER_LOCATION_NAME } from "../monitors/check-errors";
import type { NotificationEvent, NotificationEventKind, NotificationLanguage } from "./public";
import type { NotificationMessage } from "./providers/provider";

const TEXT = {
  "zh-CN": {
    title: {
      down: "🔴 监控故障：{{name}}",
      recovery: "🟢 监控恢复：{{name}}",
      reminder: "🔴 监控仍然故障：{{name}}",
      offline: "🔴 客户端离线：{{name}}",
      online: "🟢 客户端恢复在线：{{name}}",
      cpu: "🟠 CPU 使用率过高：{{name}}",
      memory: "🟠 内存使用率过高：{{name}}",
      disk: "🟠 磁盘使用率过高：{{name}} {{mountPoint}}",
      container: "🔴 容器异常：{{name}} 上的 {{container}}",
      budget: "🟠 错误预算消耗过快：{{name}}",
      budgetSpent: "🔴 错误预算已用完：{{name}}",
      test: "✅ Vigil 测试消息：{{name}}",
    },
    group: {
      down: "{{count}} 个监控故障",
      recovery: "{{count}} 个监控恢复",
      reminder: "{{count}} 个监控仍然故障",
      offline: "{{count}} 个客户端离线",
      online: "{{count}} 个客户端恢复在线",
      cpu: "{{count}} 个 CPU 告警",
      memory: "{{count}} 个内存告警",
      disk: "{{count}} 个磁盘告警",
      container: "{{count}} 个容器告警",
      budget: "{{count}} 个错误预算告警",
      test: "{{count}} 条测试消息",
    },
    groupOne: {
      down: "1 个监控故障",
      recovery: "1 个监控恢复",
      reminder: "1 个监控仍然故障",
      offline: "1 个客户端离线",
      online: "1 个客户端恢复在线",
      cpu: "1 个 CPU 告警",
      memory: "1 个内存告警",
      disk: "1 个磁盘告警",
      container: "1 个容器告警",
      budget: "1 个错误预算告警",
      test: "1 条测试消息",
    },
    groupJoin: "，",
    label: {
      url: "地址",
      target: "目标",
      checkType: "类型",
      port: "端口",
      record: "记录",
      packets: "每次检查的数据包",
      container: "容器",
      image: "镜像",
      problem: "问题",
      objective: "目标",
      budgetLeft: "剩余预算",
      burnRate: "消耗速率",
      resolver: "DNS 服务器",
      keyword: "关键字",
      jsonPath: "JSON 断言",
      lastPush: "最后推送",
      never: "从未",
      httpStatus: "状态码",
      error: "原因",
      responseTime: "响应时间",
      hostname: "主机",
      usage: "使用率",
      threshold: "阈值",
      mountPoint: "挂载点",
      downtime: "故障时长",
      time: "时间",
      lastSeen: "最后上报",
      address: "来源地址",
      escalation: "升级",
      paged: "已呼叫",
      ack: "确认",
    },
    type: { http: "HTTP", tcp: "TCP", dns: "DNS", push: "推送", ping: "Ping", group: "分组", ...settingsTypeNames("zh-CN") },
    ms: "毫秒",
    units: ["天", "小时", "分", "秒"],
    testBody: "这是一条测试消息：此渠道配置正确。",
    problem: { stopped: "已停止（{{state}}）", unhealthy: "健康检查失败", restarts: "{{minutes}} 分钟内重启 {{count}} 次" },
    objective: "{{objective}}%（{{days}} 天）",
    burn: "{{rate}} 倍（近 {{hours}} 小时；告警线 {{threshold}} 倍）",
    escalation: "第 {{step}}/{{steps}} 级，仍未确认",
    escalationRepeat: "第 {{step}}/{{steps}} 级（第 {{repeat}} 次重复），仍未确认",
  },
  "en-US": {
    title: {
      down: "🔴 Monitor down: {{name}}",
      recovery: "🟢 Monitor recovered: {{name}}",
      reminder: "🔴 Monitor still down: {{name}}",
      offline: "🔴 Agent offline: {{name}}",
      online: "🟢 Agent back online: {{name}}",
      cpu: "🟠 High CPU usage: {{name}}",
      memory: "🟠 High memory usage: {{name}}",
      disk: "🟠 Disk almost full: {{name}} {{mountPoint}}",
      container: "🔴 Container trouble on {{name}}: {{container}}",
      budget: "🟠 Error budget burning fast: {{name}}",
      budgetSpent: "🔴 Error budget spent: {{name}}",
      test: "✅ Vigil test message: {{name}}",
    },
    group: {
      down: "{{count}} monitors down",
      recovery: "{{count}} monitors recovered",
      reminder: "{{count}} monitors still down",
      offline: "{{count}} agents offline",
      online: "{{count}} agents back online",
      cpu: "{{count}} CPU alerts",
      memory: "{{count}} memory alerts",
      disk: "{{count}} disk alerts",
      container: "{{count}} container alerts",
      budget: "{{count}} error budget alerts",
      test: "{{count}} test messages",
    },
    groupOne: {
      down: "1 monitor down",
      recovery: "1 monitor recovered",
      reminder: "1 monitor still down",
      offline: "1 agent offline",
      online: "1 agent back online",
      cpu: "1 CPU alert",
      memory: "1 memory alert",
      disk: "1 disk alert",
      container: "1 container alert",
      budget: "1 error budget alert",
      test: "1 test message",
    },
    groupJoin: ", ",
    label: {
      url: "URL",
      target: "Target",
      checkType: "Type",
      port: "Port",
      record: "Record",
      packets: "Packets per check",
      container: "Container",
      image: "Image",
      problem: "Problem",
      objective: "Objective",
      budgetLeft: "Budget left",
      burnRate: "Burn rate",
      resolver: "DNS server",
      keyword: "Keyword",
      jsonPath: "JSON assertion",
      lastPush: "Last push",
      never: "never",
      httpStatus: "Status code",
      error: "Reason",
      responseTime: "Response time",
      hostname: "Host",
      usage: "Usage",
      threshold: "Threshold",
      mountPoint: "Mount point",
      downtime: "Down for",
      time: "Time",
      lastSeen: "Last report",
      address: "From address",
      escalation: "Escalation",
      paged: "Paged",
      ack: "Acknowledge",
    },
    type: { http: "HTTP", tcp: "TCP", dns: "DNS", push: "Push", ping: "Ping", group: "Group", ...settingsTypeNames("en-US") },
    ms: "ms",
    units: ["d", "h", "m", "s"],
    testBody: "This is a test message: this channel is set up correctly.",
    problem: { stopped: "stopped ({{state}})", unhealthy: "its health check fails", restarts: "restarted {{count}} times in {{minutes}} min" },
    objective: "{{objective}}% over {{days}} days",
    burn: "{{rate}}× over the last {{hours}} h (alert at {{threshold}}×)",
    escalation: "step {{step}} of {{steps}}, not acknowledged",
    escalationRepeat: "step {{step}} of {{steps}} (repeat {{repeat}}), not acknowledged",
  },
} as const;

const fill = (template: string, values: Record<string, string | number | undefined>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? "")).trim();

/** A check's error sentence in the message's language (the UI's own translations, so both read the same). */
export function translateError(message: string, lang: NotificationLanguage): string {
  const { code, params } = parseCheckError(message);
  const ui = lang === "zh-CN" ? zhCN : enUS;
  const dict = ui.monitors.checkErrors;
  let values = params;
  if (code === "STATUS") values = { ...params, expected: params.expected.replace(/ or /g, dict.or) };
  else if (code === "LOCATIONS_DOWN") {
    // Each location's own error translated too, and the server named as the UI names it ("Vigil server").
    const names = mapLocations(params.names, ui.monitors.locations.separator, (name, error) => {
      const named = name === SERVER_LOCATION_NAME ? ui.monitors.locations.server : name;
      return error === null ? named : fill(ui.monitors.locations.nameWithError, { name: named, error: translateError(error, lang) });
    });
    values = { ...params, names };
  }
  return fill(dict[code], values);
}

/** "2026-11-23 11:02:03 (UTC+08:00)" in the instance's zone. */
export function formatTime(at: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const offset = get("timeZoneName").replace("GMT", "UTC") || "UTC";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}:${get("second")} (${offset === "UTC" ? "UTC+00:00" : offset})`;
}

export function formatDuration(seconds: number, lang: NotificationLanguage): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  const s = Math.floor(seconds % 60);
  const units = TEXT[lang].units;
  const parts = [d, h, m, s].map((n, i) => [n, units[i]] as const).filter(([n]) => n > 0);
  if (!parts.length) return `0${units[3]}`;
  return parts.slice(0, 2).map(([n, u]) => `${n}${u}`).join(" ");
}

const pct = (v: number) => `${Math.round(v * 10) / 10}%`;

/** The facts of one event as "Label: value" lines. */
function factLines(e: NotificationEvent, lang: NotificationLanguage, timeZone: string): string[] {
  const T = TEXT[lang];
  const L = T.label;
  const f = e.facts;
  const lines: string[] = [];
  if (f.checkType && f.checkType !== "http") lines.push(`${L.checkType}: ${T.type[f.checkType]}`);
  if (f.url) lines.push(`${f.checkType && f.checkType !== "http" ? L.target : L.url}: ${f.url}`);
  if (f.record) lines.push(`${L.record}: ${f.record}`);
  if (f.packets) lines.push(`${L.packets}: ${f.packets}`);
  if (f.resolver) lines.push(`${L.resolver}: ${f.resolver}`);
  if (f.keyword) lines.push(`${L.keyword}: ${f.keyword}`);
  if (f.jsonPath) lines.push(`${L.jsonPath}: ${f.jsonPath}`);
  if (f.lastPushAt !== undefined) lines.push(`${L.lastPush}: ${f.lastPushAt === null ? L.never : formatTime(f.lastPushAt, timeZone)}`);
  if (f.hostname) lines.push(`${L.hostname}: ${f.hostname}`);
  if (f.lastSeenAt !== undefined) lines.push(`${L.lastSeen}: ${f.lastSeenAt === null ? L.never : formatTime(f.lastSeenAt, timeZone)}`);
  if (f.address) lines.push(`${L.address}: ${f.address}`);
  if (f.httpStatus) lines.push(`${L.httpStatus}: ${f.httpStatus}`);
  if (f.error) lines.push(`${L.error}: ${translateError(f.error, lang)}`);
  if (f.responseTime !== undefined && f.responseTime !== null) lines.push(`${L.responseTime}: ${f.responseTime} ${T.ms}`);
  if (f.mountPoint) lines.push(`${L.mountPoint}: ${f.mountPoint}`);
  if (f.container) lines.push(`${L.container}: ${f.container}`);
  if (f.image) lines.push(`${L.image}: ${f.image}`);
  if (f.containerProblem) lines.push(`${L.problem}: ${containerProblem(e, lang)}`);
  if (f.objective !== undefined) lines.push(`${L.objective}: ${fill(T.objective, { objective: f.objective, days: f.objectiveDays })}`);
  if (f.budgetRemaining !== undefined) lines.push(`${L.budgetLeft}: ${pct(f.budgetRemaining)}`);
  if (f.burnRate !== undefined) lines.push(`${L.burnRate}: ${fill(T.burn, { rate: f.burnRate, hours: f.burnHours, threshold: f.burnThreshold })}`);
  if (f.usage !== undefined) lines.push(`${L.usage}: ${pct(f.usage)}${f.threshold !== undefined ? ` (${L.threshold} ${pct(f.threshold)})` : ""}`);
  if (f.downtimeSeconds !== undefined) lines.push(`${L.downtime}: ${formatDuration(f.downtimeSeconds, lang)}`);
  if (f.escalationStep !== undefined) {
    const values = { step: f.escalationStep, steps: f.escalationSteps, repeat: f.escalationRepeat };
    lines.push(`${L.escalation}: ${fill(f.escalationRepeat ? T.escalationRepeat : T.escalation, values)}`);
    if (f.escalationPeople?.length) lines.push(`${L.paged}: ${f.escalationPeople.join(", ")}`);
  }
  lines.push(`${L.time}: ${formatTime(e.time, timeZone)}`);
  // Last, on its own line: a chat client shows it as a link, one tap away (the page it opens asks before it acts).
  if (f.ackUrl) lines.push(`${L.ack}: ${f.ackUrl}`);
  return lines;
}

const SEVERITY: Record<NotificationEventKind, NotificationMessage["severity"]> = {
  down: "critical",
  reminder: "critical",
  offline: "critical",
  cpu: "critical",
  memory: "critical",
  disk: "critical",
  container: "critical",
  budget: "critical",
  recovery: "ok",
  online: "ok",
  test: "info",
};

const titleOf = (e: NotificationEvent, lang: NotificationLanguage) =>
  fill(TEXT[lang].title[e.kind === "budget" && e.facts.budgetState === "exhausted" ? "budgetSpent" : e.kind], { name: e.target.name, mountPoint: e.facts.mountPoint, container: e.facts.container });

/** "stopped (exited)", "restarted 4 times in 10 min" in the message's language. */
export function containerProblem(e: NotificationEvent, lang: NotificationLanguage): string {
  const f = e.facts;
  return fill(TEXT[lang].problem[f.containerProblem!], { state: f.containerState, count: f.restarts, minutes: f.windowMinutes });
}

/** The short reason of one event on a group message's line: its error, usage or nothing. */
function shortReason(e: NotificationEvent, lang: NotificationLanguage): string {
  if (e.facts.error) return translateError(e.facts.error, lang);
  if (e.facts.usage !== undefined) return `${pct(e.facts.usage)} ≥ ${pct(e.facts.threshold ?? 0)}`;
  if (e.facts.budgetRemaining !== undefined) return `${pct(e.facts.budgetRemaining)}`;
  if (e.facts.containerProblem) return containerProblem(e, lang);
  return "";
}

/**
 * The message for events bound for one channel: one event gets its title and every fact; several (a storm) get a
 * title counting them by kind ("23 monitors down, 2 agents offline") and one line each, so every event is named.
 */
export function renderMessage(events: NotificationEvent[], lang: NotificationLanguage, timeZone: string): NotificationMessage {
  const T = TEXT[lang];
  if (events.length === 1) {
    const e = events[0];
    const lines = e.kind === "test" ? [T.testBody, `${T.label.time}: ${formatTime(e.time, timeZone)}`] : factLines(e, lang, timeZone);
    return { lang, severity: SEVERITY[e.kind], title: titleOf(e, lang), lines, events };
  }
  const counts = new Map<NotificationEventKind, number>();
  for (const e of events) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  const title = [...counts].map(([kind, count]) => (count === 1 ? T.groupOne[kind] : fill(T.group[kind], { count }))).join(T.groupJoin);
  const severity = events.some((e) => SEVERITY[e.kind] === "critical") ? "critical" : events.every((e) => SEVERITY[e.kind] === "ok") ? "ok" : "info";
  const lines = events.map((e) => {
    const reason = shortReason(e, lang);
    return `${titleOf(e, lang)}${reason ? ` — ${reason}` : ""}`;
  });
  lines.push(`${T.label.time}: ${formatTime(events[events.length - 1].time, timeZone)}`);
  return { lang, severity, title, lines, events };
}
