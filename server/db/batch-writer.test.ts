import { describe, expect, test } from "bun:test";
import { BatchWriter } from "./batch-writer";

function writer(opts: { failTimes?: number; maxItems?: number } = {}) {
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

  test("committed() rejects when the write fails, so the caller does not acknowledge", async () => {
    const { w } = writer({ failTimes: 1 });
    w.push(1);
    await expect(w.committed()).rejects.toThrow("disk I/O error");
    await w.stop();
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
