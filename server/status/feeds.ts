// A status page for other tools: its incidents and maintenance as an Atom and an RSS feed, and a JSON summary. Built
// from the page's public view, so they say nothing the page does not. Feeds speak the instance's message language and
// zone (as the subscriber mails do), with the state words the UI uses; their machine dates keep their formats.
import { randomBytes, timingSafeEqual } from "node:crypto";
import enUS from "../../ui/i18n/en-US";
import zhCN from "../../ui/i18n/zh-CN";
import type { StatusIncident } from "../incidents/public";
import type { StatusMaintenance } from "../maintenance/public";
import { formatTime } from "../notifications/messages";
import type { NotificationLanguage } from "../notifications/public";
import type { PublicStatusPage } from "./public";

/** The language and zone a feed is written in. */
export interface FeedLocale {
  language: NotificationLanguage;
  timeZone: string;
}

const TEXT = {
  "en-US": { ui: enUS, maintenance: "[Maintenance: {state}] {title}", said: "{time} {state}: {message}", list: ", " },
  "zh-CN": { ui: zhCN, maintenance: "[维护：{state}] {title}", said: "{time} {state}：{message}", list: "、" },
} as const;

const fill = (s: string, values: Record<string, string>) => s.replace(/\{\{?(\w+)\}?\}/g, (_, k: string) => values[k] ?? "");

/** A new feed key: 192 random bits, URL-safe. */
export const newFeedKey = () => randomBytes(24).toString("base64url");

/** Whether a key given matches the page's, in time that does not tell how much of it did. */
export function sameSecret(given: string, key: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A page's feed address (the feed key, when one is needed, goes after it as ?key=). */
export const feedLink = (server: string, slug: string, kind: "atom" | "rss") => `${server}/api/status/pages/${slug}/feed.${kind}`;

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);
const iso = (ms: number) => new Date(ms).toISOString();
/**
 * RSS readers render a description as HTML (the spec allows entity-encoded HTML there): the text is HTML-escaped first,
 * so after the XML decoding a reader sees `&lt;b&gt;` and shows `<b>`, never markup; line breaks become <br>.
 */
const rssHtml = (s: string) => escapeXml(escapeXml(s).replace(/\r?\n/g, "<br>\n"));
/**
 * An RSS title is plain text by the spec, yet many readers render it as HTML too: `<` and `>` reach them escaped, and so
 * does an `&` that could start a character reference; a plain `&` ("Shop & Co") stays as typed.
 */
const rssTitle = (s: string) => escapeXml(s.replace(/&(?=[#A-Za-z0-9])|[<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!));

interface Entry {
  id: string;
  title: string;
  updated: number;
  published: number;
  text: string;
}

/** Incidents (every update, newest first, in the text) and maintenance in progress or coming, newest change first. */
function entries(page: PublicStatusPage, url: string, { language, timeZone }: FeedLocale): Entry[] {
  const T = TEXT[language];
  const { states } = T.ui.incidents;
  const words = T.ui.statusPage.maintenance;
  const time = (ms: number) => formatTime(ms, timeZone);
  const affects = (names: string[]) => (names.length ? `\n\n${fill(words.affects, { names: names.join(T.list) })}` : "");
  const incident = (x: StatusIncident): Entry => {
    const latest = x.updates[x.updates.length - 1];
    return {
      id: `${url}#incident-${x.id}`,
      title: `[${states[x.state]}] ${x.title}`,
      updated: latest?.at ?? x.createdAt,
      published: x.createdAt,
      text: [...x.updates].reverse().map((u) => fill(T.said, { time: time(u.at), state: states[u.state], message: u.message })).join("\n\n") + affects(x.affects),
    };
  };
  const maintenance = (w: StatusMaintenance): Entry => ({
    id: `${url}#maintenance-${w.id}-${w.start}`,
    title: fill(T.maintenance, { state: w.state === "active" ? words.active : words.upcoming, title: w.title }),
    updated: w.start,
    published: w.start,
    text: `${time(w.start)} – ${w.end === null ? words.until : time(w.end)}${w.description ? `\n\n${w.description}` : ""}${affects(w.affects)}`,
  });
  return [...page.incidents.open.map(incident), ...page.incidents.resolved.map(incident), ...page.maintenance.map(maintenance)].sort((a, b) => b.updated - a.updated);
}

export function atomFeed(page: PublicStatusPage, url: string, self: string, locale: FeedLocale): string {
  const items = entries(page, url, locale);
  const updated = items[0]?.updated ?? page.generatedAt;
  const title = page.title || "Status";
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${locale.language}">\n` +
    `<title>${escapeXml(title)}</title>\n<id>${escapeXml(url)}</id>\n<link href="${escapeXml(url)}"/>\n<link rel="self" href="${escapeXml(self)}"/>\n<updated>${iso(updated)}</updated>\n` +
    items
      .map(
        (e) =>
          `<entry>\n<id>${escapeXml(e.id)}</id>\n<title>${escapeXml(e.title)}</title>\n<link href="${escapeXml(url)}"/>\n<published>${iso(e.published)}</published>\n` +
          `<updated>${iso(e.updated)}</updated>\n<author><name>${escapeXml(title)}</name></author>\n<content type="text">${escapeXml(e.text)}</content>\n</entry>\n`,
      )
      .join("") +
    `</feed>\n`
  );
}

export function rssFeed(page: PublicStatusPage, url: string, locale: FeedLocale): string {
  const items = entries(page, url, locale);
  const title = page.title || "Status";
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0">\n<channel>\n<title>${rssTitle(title)}</title>\n<link>${escapeXml(url)}</link>\n<language>${locale.language.toLowerCase()}</language>\n` +
    `<description>${rssHtml(page.description || title)}</description>\n<lastBuildDate>${new Date(page.generatedAt).toUTCString()}</lastBuildDate>\n` +
    items
      .map(
        (e) =>
          `<item>\n<title>${rssTitle(e.title)}</title>\n<link>${escapeXml(url)}</link>\n<guid isPermaLink="false">${escapeXml(e.id)}:${e.updated}</guid>\n` +
          `<pubDate>${new Date(e.updated).toUTCString()}</pubDate>\n<description>${rssHtml(e.text)}</description>\n</item>\n`,
      )
      .join("") +
    `</channel>\n</rss>\n`
  );
}

/** GET …/summary.json: the overall status, each component's, open incidents and maintenance. */
export function summary(page: PublicStatusPage, url: string) {
  return {
    page: { title: page.title, url, updatedAt: page.generatedAt },
    status: page.overall.status,
    components: [
      ...page.monitors.map((m) => ({ type: "monitor" as const, name: m.name, status: m.status, uptime: m.uptime })),
      ...page.agents.map((a) => ({ type: "agent" as const, name: a.name, status: a.status })),
    ],
    incidents: page.incidents.open.map(({ title, impact, state, createdAt, updates }) => ({ title, impact, state, createdAt, latest: updates[updates.length - 1] ?? null })),
    maintenance: page.maintenance.map(({ title, state, start, end }) => ({ title, state, start, end })),
  };
}
