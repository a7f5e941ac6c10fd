// npm run bench:storage — bytes per check on disk, both engines, for whole hours of 1-minute checks.
//
// bench:monitors measures a run of a minute or two, so on PostgreSQL each packed block holds one or two checks and its
// row and array headers dominate. Bytes depend on the data, not on how fast it was written: this writes --hours hours
// of 1-minute checks of --monitors monitors through the server's own writer (server/monitors/writer.ts), with start
// times spread over each minute, response times that vary, and one check in 200 down with an error. Then, as the
// maintenance pass does once an hour is an hour old, PostgreSQL packs the hours (server/monitors/packing.ts), and both
// engines are measured: SQLite's check_results pages (dbstat, after a checkpoint), PostgreSQL's check_results and
// check_blocks (pg_total_relation_size of every partition, after a VACUUM). From that: a day of raw checks at
// 100 000 monitors.
//
//   bun scripts/bench/storage.ts [--monitors 10000] [--hours 3] [--engines sqlite,postgres] [--database-url postgres://…]
//
// Nothing is sent over the network but to the database; the run ends by itself and cleans up its files and schema.
import { sql } from "drizzle-orm";
import { parseArgs } from "node:util";
import { createCheckPacking } from "../../server/monitors/packing";
import { createWriter } from "../../server/monitors/writer";
import { freshStore, parseEngines, withPg, type Engine, type PgServer } from "./engines";
import { benchDir } from "./proc";
import { insertUpMonitors } from "./seed-monitors";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    monitors: { type: "string", default: "10000" },
    hours: { type: "string", default: "3" },
    engines: { type: "string", default: "sqlite,postgres" },
    "database-url": { type: "string" },
  },
});
const M = Number(args.monitors);
const hours = Number(args.hours);
const engines = parseEngines(args.engines!);
if (!Number.isInteger(M) || M < 1 || !Number.isInteger(hours) || hours < 1 || hours > 48 || !engines) {
  console.error("usage: bun scripts/bench/storage.ts [--monitors 10000] [--hours 3] [--engines sqlite,postgres] [--database-url postgres://…]");
  process.exit(2);
}

const HOUR = 3_600_000;
/** Hours that ended before now, so the packer takes every one. */
const firstHour = (Math.floor(Date.now() / HOUR) - hours - 2) * HOUR;
const DAY_AT_100K = 100_000 * 1440;

async function run(engine: Engine, pg: PgServer | null) {
  const temp = benchDir(`vigil-bench-storage-${engine}-`);
  const store = await freshStore(engine, temp.path, pg);
  try {
    const db = await store.open();
    await insertUpMonitors(db, M, (i) => ({ url: `http://127.0.0.1:1/m/${i}` }));
    // The hour partitions the maintenance pass makes ahead of the clock (PostgreSQL), here for the hours written.
    const packing = engine === "postgres" ? createCheckPacking(db) : null;
    for (let h = 0; h < hours; h += 3) await packing?.ensureHours(firstHour + h * HOUR);
    const writer = createWriter(db, { batchSize: 20_000, flushMs: 60_000 });
    const walAt = async () => (engine === "postgres" ? String((await db.rows<{ lsn: string }>(sql`SELECT pg_current_wal_lsn()::text AS lsn`))[0]!.lsn) : null);
    const walBytes = async (from: string | null) =>
      from === null ? null : Number((await db.rows<{ b: number }>(sql`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ${from}::pg_lsn)::bigint AS b`))[0]!.b);
    const walStart = await walAt();
    let checks = 0;
    for (let minute = 0; minute < hours * 60; minute++) {
      for (let id = 1; id <= M; id++) {
        // Each monitor has its own second in the minute (as the scheduler spreads them), plus a little jitter.
        const time = firstHour + minute * 60_000 + ((id * 7919) % 60_000) + (minute * 13 + id) % 40;
        const down = (id * 31 + minute) % 200 === 0;
        writer.addResult(id, {
          time,
          up: !down,
          responseTime: down ? null : 20 + ((id * 17 + minute * 29) % 180),
          httpStatus: down ? 503 : 200,
          error: down ? "status 503, expected 2xx" : null,
        });
        checks++;
      }
      await writer.flush();
    }
    const written = (await store.sizes(db, ["check_results"])).tables.check_results!;
    const walWritten = await walBytes(walStart);
    const walPackStart = await walAt();
    if (packing) {
      await packing.pack(Number.MAX_SAFE_INTEGER);
      await db.exec(sql`VACUUM check_results, check_blocks`);
    }
    const walPacked = await walBytes(walPackStart);
    const [counted] = await db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM check_results`);
    const blocks = engine === "postgres" ? Number((await db.rows<{ n: number }>(sql`SELECT coalesce(sum(cardinality(offsets)), 0) AS n FROM check_blocks`))[0]!.n) : 0;
    const sizes = await store.sizes(db, engine === "postgres" ? ["check_results", "check_blocks"] : ["check_results"]);
    await db.close();
    const stored = Number(counted!.n) + blocks;
    if (stored !== checks) throw new Error(`${engine}: ${checks} checks written, ${stored} stored`);
    const bytes = sizes.tables.check_results! + (sizes.tables.check_blocks ?? 0);
    return { engine, checks, asWritten: written / checks, perCheck: bytes / checks, wal: walWritten === null ? null : { written: walWritten / checks, packed: walPacked! / checks } };
  } finally {
    await store.drop();
    temp.remove();
  }
}

const results = await withPg(engines, args["database-url"], async (pg) => {
  const out = [];
  for (const engine of engines) {
    console.error(`writing ${hours} h of 1-minute checks of ${M} monitors on ${engine}…`);
    out.push(await run(engine, pg));
  }
  return out;
});

const gb = (b: number) => `${(b / 1e9).toFixed(1)} GB`;
console.log(`\n${M.toLocaleString("en-US")} monitors, ${hours} h of 1-minute checks each, written through the server's writer:\n`);
console.log("| engine | checks | bytes per check as written | bytes per check stored | a day of raw checks at 100 000 monitors | WAL per check: written / packed |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const r of results) {
  const wal = r.wal ? `${r.wal.written.toFixed(0)} / ${r.wal.packed.toFixed(0)} B` : "—";
  console.log(`| ${r.engine} | ${r.checks.toLocaleString("en-US")} | ${r.asWritten.toFixed(1)} | ${r.perCheck.toFixed(1)} | ${gb(r.perCheck * DAY_AT_100K)} | ${wal} |`);
}
console.log(
  "\nStored: SQLite's check_results with its key (dbstat pages after a checkpoint); PostgreSQL's check_results and check_blocks, every " +
    "partition with its indexes, after the hours are packed (as the maintenance pass packs an hour once it is an hour old) and a VACUUM. " +
    "As written: PostgreSQL's rows before packing (the newest hour or two always stay as rows). WAL: PostgreSQL's write-ahead log " +
    "while the checks were written, and while they were packed (full-page images included; SQLite's WAL is checkpointed into the file).",
);
process.exit(0);
