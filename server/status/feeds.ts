// A status page for other tools: its incidents and maintenance as an Atom and an RSS feed, and a JSON summary. Built
// from the page's public view, so they say nothing the page does not.
import type { StatusIncident } from "../incidents/public";
import type { StatusMaintenance } from "../maintenance/public";
import type { PublicStatusPage } from "./public";

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
function entries(page: PublicStatusPage, url: string): Entry[] {
  const incident = (x: StatusIncident): Entry => {
    const latest = x.updates[x.updates.length - 1];
    return {
      id: `${url}#incident-${x.id}`,
      title: `[${x.state}] ${x.title}`,
      updated: latest?.at ?? x.createdAt,
      published: x.createdAt,
      text: [...x.updates].reverse().map((u) => `${iso(u.at)} ${u.state}: ${u.message}`).join("\n\n") + (x.affects.length ? `\n\nAffects: ${x.affects.join(", ")}` : ""),
    };
  };
  const maintenance = (w: StatusMaintenance): Entry => ({
    id: `${url}#maintenance-${w.id}-${w.start}`,
    title: `[maintenance${w.state === "active" ? ", in progress" : ", scheduled"}] ${w.title}`,
    updated: w.start,
    published: w.start,
    text: `${iso(w.start)} – ${w.end === null ? "until ended" : iso(w.end)}${w.description ? `\n\n${w.description}` : ""}${w.affects.length ? `\n\nAffects: ${w.affects.join(", ")}` : ""}`,
  });
  return [...page.incidents.open.map(incident), ...page.incidents.resolved.map(incident), ...page.maintenance.map(maintenance)].sort((a, b) => b.updated - a.updated);
}

export function atomFeed(page: PublicStatusPage, url: string, self: string): string {
  const items = entries(page, url);
  const updated = items[0]?.updated ?? page.generatedAt;
  const title = page.title || "Status";
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n` +
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

export function rssFeed(page: PublicStatusPage, url: string): string {
  const items = entries(page, url);
  const title = page.title || "Status";
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0">\n<channel>\n<title>${rssTitle(title)}</title>\n<link>${escapeXml(url)}</link>\n` +
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
