// What the monitor service answers about a monitor's past (recent checks, history, series, failure screenshots):
// reads that first let the queued writes land, so a reply includes the check that just ran.
import type { createHistory } from "./history";
import type { RecentCheck, SeriesRange } from "./public";
import type { createRecentChecks } from "./recent";
import type { Screenshots } from "./screenshots";
import type { MonitorStore } from "./store";
import type { createWriter } from "./writer";

interface Deps {
  store: MonitorStore;
  recent: ReturnType<typeof createRecentChecks>;
  writer: Pick<ReturnType<typeof createWriter>, "flush">;
  history: Pick<ReturnType<typeof createHistory>, "monitorHistory" | "series">;
  screenshots: Screenshots;
  clock: { now(): number };
}

export function createMonitorReads({ store, recent, writer, history, screenshots, clock }: Deps) {
  return {
    /** Every monitor's id, name, type, target, group, tags and active flag (for pickers). */
    names: () => store.names(),
    /** What the monitor list orders on, for every monitor. */
    listFields: () => store.listFields(clock.now()),
    /** The last 50 checks of one monitor (undefined if unknown), oldest first. */
    async recentChecks(id: number): Promise<RecentCheck[] | undefined> {
      return store.get(id) ? (await recent.of([id])).get(id) : undefined;
    },
    /** The last 50 checks of each of these monitors (ids of no monitor are left out), oldest first. */
    async recentChecksOf(ids: readonly number[]): Promise<Record<number, RecentCheck[]>> {
      return Object.fromEntries(await recent.of(ids.filter((id) => store.get(id))));
    },
    /** The last 50 checks of every monitor, oldest first. */
    async allRecentChecks(): Promise<Record<number, RecentCheck[]>> {
      return Object.fromEntries(await recent.of(store.all().map((e) => e.id)));
    },

    /** History reads see every result, queued ones included. */
    async monitorHistory(id: number) {
      await writer.flush();
      return history.monitorHistory(id, clock.now());
    },
    /** A monitor's failure screenshots, latest first (undefined if unknown). */
    async screenshots(id: number) {
      return store.get(id) ? screenshots.list(id) : undefined;
    },
    /** One failure screenshot's PNG (null when none at that time; undefined if the monitor is unknown). */
    async screenshot(id: number, time: number) {
      return store.get(id) ? screenshots.get(id, time) : undefined;
    },
    async series(id: number, range: SeriesRange) {
      await writer.flush();
      return history.series(id, range, clock.now());
    },
  };
}
