// An agent's raw samples over a range, as CSV or NDJSON, streamed a page at a time by (agent, time), the primary key.
import { and, asc, eq, gte, lt } from "drizzle-orm";
import type { SeriesValues } from "../agents/tables";
import type { Db } from "../db/database";
import { csvLine } from "./csv";
import { pagesFrom, PAGE_ROWS, textStream, type ExportFormat } from "./stream";

export interface ExportedSample {
  time: string;
  timeMs: number;
  values: SeriesValues;
}

const FIXED = ["cpu", "memory", "load1", "load5", "load15"];
const GROUPS = ["disk:", "rx:", "tx:"];
const rank = (key: string) => {
  const fixed = FIXED.indexOf(key);
  if (fixed >= 0) return fixed;
  const group = GROUPS.findIndex((prefix) => key.startsWith(prefix));
  return FIXED.length + (group >= 0 ? group : GROUPS.length);
};

/** Series in reading order: cpu, memory, load1, load5, load15, then disk:*, rx:*, tx:* each by name (code points). */
export const seriesOrder = (a: string, b: string) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);

const ordered = (values: SeriesValues): SeriesValues => Object.fromEntries(Object.entries(values).sort(([a], [b]) => seriesOrder(a, b)));

/**
 * The samples of `agentId` with from <= time < to, oldest first, as a byte stream in `format`. NDJSON: one sample a
 * line, {time, timeMs, values} with every series it holds. CSV: time, time_ms, then a column per series.
 *
 * A CSV header must name every column before the first row, and the series vary over a range (a disk mounted, an
 * interface gone). Collecting the distinct keys in SQL needs each engine's JSON functions (json_each,
 * jsonb_object_keys), so the CSV walks the range twice through the primary key instead: a first pass keeps only the
 * set of keys (a few dozen strings, whatever the range), the second writes the rows, an empty cell where a sample
 * lacks a series. Raw samples are kept a day by default (17 280 at 5 s), so the first pass is cheap. A series that
 * first appears in a sample written between the two passes (a late report from a host that just mounted a disk) is
 * left out of the CSV; NDJSON, read in one pass, has it.
 */
export function samplesStream(db: Db, agentId: number, range: { from: number; to: number }, format: ExportFormat, pageRows = PAGE_ROWS): ReadableStream<Uint8Array> {
  const { agentSamples } = db.t;
  const read = (cursor: number, limit: number) =>
    db.orm
      .select({ time: agentSamples.time, values: agentSamples.values })
      .from(agentSamples)
      .where(and(eq(agentSamples.agentId, agentId), gte(agentSamples.time, cursor), lt(agentSamples.time, range.to)))
      .orderBy(asc(agentSamples.time))
      .limit(limit);
  const pages = () => pagesFrom(range.from, read, pageRows);

  return textStream(
    (async function* () {
      if (format === "ndjson") {
        for await (const rows of pages()) {
          yield rows.map((r) => `${JSON.stringify({ time: new Date(r.time).toISOString(), timeMs: r.time, values: ordered(r.values) } satisfies ExportedSample)}\n`).join("");
        }
        return;
      }
      const keys = new Set<string>();
      for await (const rows of pages()) for (const r of rows) for (const key of Object.keys(r.values)) keys.add(key);
      const columns = [...keys].sort(seriesOrder);
      yield csvLine(["time", "time_ms", ...columns]);
      for await (const rows of pages()) {
        yield rows.map((r) => csvLine([new Date(r.time).toISOString(), r.time, ...columns.map((key) => r.values[key])])).join("");
      }
    })(),
  );
}
