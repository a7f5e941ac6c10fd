// A shields-like SVG badge: the monitor's name on the left, its status and 30-day uptime on the right.
import type { StatusMonitor } from "./public";

const COLORS = { up: "#4c1", down: "#e05d44", pending: "#9f9f9f", paused: "#9f9f9f", maintenance: "#007ec6" } as const;

/** Verdana 11 px advances, roughly: narrow, wide and average glyphs. Close enough to size the boxes. */
function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += /[ilI.,:;|!'1]/.test(ch) ? 3.5 : /[mwMW@%]/.test(ch) ? 10 : ch.charCodeAt(0) > 0x2e80 ? 11 : 7;
  return Math.ceil(w);
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function badgeSvg(monitor: StatusMonitor): string {
  const label = monitor.name.length > 40 ? `${monitor.name.slice(0, 39)}…` : monitor.name;
  const uptime = monitor.uptime.month;
  const value = uptime === null ? monitor.status : `${monitor.status} ${uptime}%`;
  const lw = textWidth(label) + 12;
  const vw = textWidth(value) + 12;
  const total = lw + vw;
  const color = COLORS[monitor.status];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${escape(`${label}: ${value}`)}">` +
    `<title>${escape(`${label}: ${value}`)}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${total}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${color}"/><rect width="${total}" height="20" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">` +
    `<text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${escape(label)}</text><text x="${lw / 2}" y="14">${escape(label)}</text>` +
    `<text x="${lw + vw / 2}" y="15" fill="#010101" fill-opacity=".3">${escape(value)}</text><text x="${lw + vw / 2}" y="14">${escape(value)}</text>` +
    `</g></svg>`;
}
