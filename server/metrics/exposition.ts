// The Prometheus text exposition format (version 0.0.4), written by hand: HELP and TYPE lines, then samples
// `name{label="value"} number`. https://prometheus.io/docs/instrumenting/exposition_formats/
import type { BucketHistogram } from "./histogram";

export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type MetricType = "gauge" | "counter" | "histogram";

const NEEDS_LABEL_ESCAPE = /[\\"\n]/;

/** A label value as the format wants it: backslash, double quote and line feed escaped. */
export function escapeLabelValue(value: string): string {
  // Most names need nothing: test first, so the common case allocates nothing.
  if (!NEEDS_LABEL_ESCAPE.test(value)) return value;
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** HELP text escapes only backslash and line feed. */
const escapeHelp = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

/** A sample value: Go's ParseFloat reads JavaScript's number text, except for the infinities. */
export function formatValue(value: number): string {
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value); // NaN → "NaN", as the format spells it
}

/** `{a="1",b="x"}` from pairs (values escaped); "" for none. */
export function labelSet(labels: Record<string, string | number>): string {
  let out = "";
  for (const key in labels) out += `${out ? "," : ""}${key}="${escapeLabelValue(String(labels[key]))}"`;
  return out ? `{${out}}` : "";
}

/**
 * Collects metric families in order. Every family is written whole (HELP, TYPE, its samples) before the next, as
 * the format requires; a family without samples still gets its HELP and TYPE so scrapers learn it exists.
 */
export class Exposition {
  private readonly parts: string[] = [];

  /** One family: `lines` are its sample lines, each ending in "\n" (see `line`). */
  family(name: string, type: MetricType, help: string, lines: string | readonly string[] = ""): this {
    this.parts.push(`# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`);
    if (typeof lines === "string") this.parts.push(lines);
    else for (const l of lines) this.parts.push(l);
    return this;
  }

  /** A family with one sample (unlabelled unless `labels`, a `{…}` set, is given). */
  single(name: string, type: MetricType, help: string, value: number, labels = ""): this {
    return this.family(name, type, help, line(name, labels, value));
  }

  /** A histogram: cumulative `_bucket{le}` lines ending with +Inf, then `_sum` and `_count`. */
  histogram(name: string, help: string, h: Readonly<BucketHistogram>, labels = ""): this {
    const inner = labels ? `${labels.slice(1, -1)},` : "";
    let out = "";
    let cumulative = 0;
    for (let i = 0; i < h.bounds.length; i++) {
      cumulative += h.counts[i];
      out += `${name}_bucket{${inner}le="${formatValue(h.bounds[i])}"} ${cumulative}\n`;
    }
    cumulative += h.counts[h.bounds.length];
    out += `${name}_bucket{${inner}le="+Inf"} ${cumulative}\n`;
    out += line(`${name}_sum`, labels, h.sum);
    out += line(`${name}_count`, labels, h.count);
    return this.family(name, "histogram", help, out);
  }

  text(): string {
    return this.parts.join("");
  }
}

/** One sample line; `labels` is a rendered label set (`labelSet`) or "". */
export const line = (name: string, labels: string, value: number) => `${name}${labels} ${formatValue(value)}\n`;
