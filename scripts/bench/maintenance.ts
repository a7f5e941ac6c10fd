// npm run bench:maintenance — what maintenance windows cost, in this process (no network, nothing but the service):
// 50 000 monitors in a fresh SQLite database with 1 000 windows (scripts/bench/windows.ts: each names 50 monitors,
// every other one in progress), then
// - loading the windows and working out which monitors are in maintenance (what start-up adds),
// - the question every recorded check asks ("is monitor 42 in maintenance?") against a function that answers no
//   without looking, per call,
// - one boundary (a window starting: the timer re-evaluates only the windows due) and a full re-evaluation of every
//   window (what the hourly safety pass does).
// Whether checks keep their cadence with windows is the server benchmark's: npm run bench:monitors -- --windows 0,1000.
//
//   bun scripts/bench/maintenance.ts [--monitors 50000] [--windows 1000] [--rounds 20]
import { parseArgs } from "node:util";
import { openDatabase } from "../../server/db/open";
import { createEventBus } from "../../server/events";
import { createMaintenanceService } from "../../server/maintenance/service";
import { fakeClock } from "../../server/test-support";
import { benchDir } from "./proc";
import { insertWindows } from "./windows";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: { monitors: { type: "string", default: "50000" }, windows: { type: "string", default: "1000" }, rounds: { type: "string", default: "20" } },
});
const n = Number(args.monitors!.replace(/_/g, ""));
const count = Number(args.windows!.replace(/_/g, ""));
const rounds = Number(args.rounds);
if (![n, count, rounds].every((v) => Number.isInteger(v) && v > 0)) {
  console.error("usage: bun scripts/bench/maintenance.ts [--monitors 50000] [--windows 1000] [--rounds 20]");
  process.exit(2);
}

const temp = benchDir("vigil-bench-maintenance-", false);
const db = await openDatabase(`${temp.path}/vigil.db`);
try {
  const now = Date.UTC(2026, 10, 25, 9, 0, 0);
  for (let from = 1; from <= n; from += 500) {
    const chunk = [];
    for (let i = from; i <= Math.min(n, from + 499); i++) chunk.push({ name: `bench ${i}`, settings: { url: `http://127.0.0.1:9/m/${i}` }, intervalSeconds: 60, timeoutMs: 10_000, retries: 1, createdAt: now, updatedAt: now });
    await db.orm.insert(db.t.monitors).values(chunk);
  }
  const { inMaintenance } = await insertWindows(db, n, count, now);
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  const clock = fakeClock(now);
  const bus = createEventBus();
  let changes = 0;
  bus.on("maintenance.change", () => changes++);
  const service = createMaintenanceService({ db, bus, clock, monitorIds: () => ids, agentIds: () => [], exists: () => true });

  let t0 = performance.now();
  await service.load();
  const loadMs = performance.now() - t0;
  service.start(); // its timer is the fake clock's: ticks below are called by hand
  const counted = service.counts(n, 0).monitors;
  if (counted !== inMaintenance) throw new Error(`expected ${inMaintenance} monitors in maintenance, the service says ${counted}`);

  // The per-check question, against a function that answers without looking (what a check cost before windows).
  const ask = service.monitor;
  const never = (id: number) => id < 0;
  const perCall = (fn: (id: number) => boolean) => {
    let yes = 0;
    const start = performance.now();
    for (let r = 0; r < rounds; r++) for (let i = 0; i < n; i++) if (fn(ids[i])) yes++;
    return { ns: ((performance.now() - start) * 1e6) / (rounds * n), yes: yes / rounds };
  };
  perCall(ask); // warm-up
  perCall(never);
  const lookup = perCall(ask);
  const baseline = perCall(never);

  // One boundary: a window over 50 monitors not in maintenance, starting in a minute; its tick re-evaluates only what is due.
  await service.create({ title: "next", scope: "targets", monitorIds: ids.slice(50, 100), schedule: { kind: "once", startsAt: now + 60_000, endsAt: now + 120_000 } });
  clock.jump(60_000);
  changes = 0;
  t0 = performance.now();
  service.tick();
  const boundaryMs = performance.now() - t0;
  if (changes !== 1) throw new Error(`the boundary announced ${changes} changes`);

  // Every window at once (the hourly pass that guards against clock changes).
  clock.jump(3_600_000);
  t0 = performance.now();
  service.tick();
  const fullMs = performance.now() - t0;
  service.stop();

  const f = (v: number, unit: string, digits = 1) => `${v.toFixed(digits)} ${unit}`;
  console.log(`Maintenance benchmark: ${n.toLocaleString("en-US")} monitors, ${count.toLocaleString("en-US")} windows (${inMaintenance.toLocaleString("en-US")} monitors in maintenance), Bun ${Bun.version}\n`);
  console.log("| monitors | windows | load windows | \"in maintenance?\" per check | without windows | one boundary | every window re-evaluated |");
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  console.log(
    `| ${n.toLocaleString("en-US")} | ${count.toLocaleString("en-US")} | ${f(loadMs, "ms")} | ${f(lookup.ns, "ns")} | ${f(baseline.ns, "ns")} | ${f(boundaryMs, "ms", 2)} | ${f(fullMs, "ms")} |`,
  );
  console.log(`\n- ${lookup.yes.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} monitors answered "in maintenance" (expected ${inMaintenance.toLocaleString("en-US")}).`);
} finally {
  await db.close();
  temp.remove();
}
