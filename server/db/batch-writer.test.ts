import { describe, expect, test } from "bun:test";
import { createLogger } from "../log";
import { BatchWriter } from "./batch-writer";

function writer(opts: { failTimes?: number; maxItems?: number; commitWindowMs?: number } = {}) {
  const batches: number[][] = [];
  let failures = opts.failTimes ?? 0;
  let writes = 0;
  const w = new BatchWriter<number>({
    write: async (items) => {
      writes++;
      if (failures > 0) {
        failures--;
        throw new Error("disk I/O error");
      }
      batches.push(items);
    },
    maxItems: opts.maxItems,
    commitWindowMs: opts.commitWindowMs,
  });
  return { w, batches, writes: () => writes };
}

describe("BatchWriter", () => {
  test("committed() resolves once the rows are written; callers of the same moment share one transaction", async () => {
    const { w, batches, writes } = writer();
    w.push(1);
    const a = w.committed();
    w.push(2);
    const b = w.committed();
    expect(batches).toEqual([]); // not yet: the write is on the next turn of the event loop
    await Promise.all([a, b]);
    expect(batches).toEqual([[1, 2]]);
    expect(writes()).toBe(1);
    await w.committed(); // nothing queued: at once
  });

  test("with a commit window, callers a few milliseconds apart share one write, made when the window ends", async () => {
    const { w, batches, writes } = writer({ commitWindowMs: 40 });
    w.start();
    const started = performance.now();
    w.push(1);
    const a = w.committed().then(() => performance.now() - started);
    await Bun.sleep(10);
    w.push(2);
    const b = w.committed();
    await Bun.sleep(5);
    expect(batches).toEqual([]); // still within the window
    const waited = await a;
    await b;
    expect(batches).toEqual([[1, 2]]);
    expect(writes()).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(35);
    // stop() writes at once what waits for a window.
    w.push(3);
    const c = w.committed();
    await w.stop();
    await c;
    expect(batches).toEqual([[1, 2], [3]]);
  });

  test("committed() rejects when the write fails, so the caller does not acknowledge", async () => {
    const { w } = writer({ failTimes: 1 });
    w.push(1);
    await expect(w.committed()).rejects.toThrow("disk I/O error");
    await w.stop();
  });

  test("committed() rejects when a full queue's write, started before the caller asked, fails", async () => {
    const { w, batches } = writer({ failTimes: 1, maxItems: 2 });
    w.push(1);
    w.push(2); // full: its write starts at once
    await expect(w.committed()).rejects.toThrow("disk I/O error");
    // Rows of the failed batch and newer rows: the caller hears of both.
    const { w: w2 } = writer({ failTimes: 1, maxItems: 2 });
    w2.push(1);
    w2.push(2);
    w2.push(3);
    await expect(w2.committed()).rejects.toThrow("disk I/O error");
    await Promise.all([w.stop(), w2.stop()]);
    expect(batches).toEqual([[1, 2]]); // kept and written on the next flush
  });

  test("writes everything queued in one transaction per flush, in order", async () => {
    const { w, batches, writes } = writer();
    for (let i = 0; i < 5; i++) w.push(i);
    expect(w.pending).toBe(5);
    await w.flush();
    expect(batches).toEqual([[0, 1, 2, 3, 4]]);
    expect(writes()).toBe(1);
    await w.flush(); // nothing queued: no empty transaction
    expect(writes()).toBe(1);
  });

  test("one flush at a time: rows queued while a write runs go in the next one", async () => {
    const { w, batches } = writer();
    w.push(1);
    const first = w.flush();
    w.push(2);
    const second = w.flush();
    await Promise.all([first, second]);
    expect(batches).toEqual([[1], [2]]);
  });

  test("a full queue flushes at once", async () => {
    const { w, batches } = writer({ maxItems: 3 });
    for (let i = 0; i < 7; i++) w.push(i);
    await w.flush();
    expect(batches).toEqual([[0, 1, 2], [3, 4, 5, 6]]);
    expect(w.pending).toBe(0);
  });

  test("a failed write keeps its rows, ahead of newer ones, for the next flush", async () => {
    const { w, batches } = writer({ failTimes: 2 });
    w.push(1);
    await w.flush();
    w.push(2);
    await w.flush();
    expect(batches).toEqual([]);
    expect(w.pending).toBe(2);
    w.push(3);
    await w.flush();
    expect(batches).toEqual([[1, 2, 3]]);
  });

  test("a batch that fails five times running is dropped rather than grow the queue for ever", async () => {
    const { w, batches } = writer({ failTimes: 5 });
    w.push(1);
    for (let i = 0; i < 5; i++) await w.flush();
    expect(w.pending).toBe(0);
    w.push(2);
    await w.flush();
    expect(batches).toEqual([[2]]);
  });

  test("stop writes what is left and stops the timer", async () => {
    const { w, batches } = writer();
    w.start();
    w.push(1);
    await w.stop();
    expect(batches).toEqual([[1]]);
  });
});

describe("BatchWriter's log during an outage", () => {
  function logged(failTimes: number) {
    const lines: string[] = [];
    let failures = failTimes;
    const w = new BatchWriter<number>({
      write: async () => {
        if (failures-- > 0) throw new Error("Failed to connect");
      },
      log: createLogger("debug", (l) => lines.push(l)),
    });
    return { w, lines };
  }

  test("repeats of one failure are one line and a count; senders that were told to resend are not 'dropped'", async () => {
    const { w, lines } = logged(12);
    // An agent's report each time: it waits for the write, hears the failure, and sends its samples again.
    for (let i = 0; i < 12; i++) {
      w.push(i);
      await expect(w.committed()).rejects.toThrow("Failed to connect");
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("ERROR batch write failed; its rows are kept and tried again error=Error: Failed to connect");
    w.push(99);
    await w.committed(); // the database is back
    expect(lines.slice(1).map((l) => l.slice(25))).toEqual([
      expect.stringMatching(/^ERROR batch write failed; its rows are kept and tried again \(repeated 11 more times\) .* failures=12 notRetried=\d+ lost=0$/),
      expect.stringMatching(/^INFO  batch writes succeed again failures=12 notRetried=\d+ lost=0$/),
    ]);
    expect(lines.join("\n")).not.toContain("dropped");
    await w.stop();
  });

  test("rows nobody waits for, given up after five failures, are said to be dropped, on a line of their own", async () => {
    const { w, lines } = logged(5);
    w.push(1);
    for (let i = 0; i < 5; i++) await w.flush();
    expect(w.pending).toBe(0);
    expect(lines.at(-1)).toContain("ERROR batch write failed 5 times in a row; dropped rows nobody will send again error=Error: Failed to connect rows=1 lost=1");
  });
});
