import { describe, expect, test } from "bun:test";
import { addHistogramText, binOf, binValue, histogramOf, newHistogram, percentile } from "./histogram";

describe("response-time histograms", () => {
  test("stored text reads back the same from either engine's spelling", () => {
    const counts: Record<string, number> = { 0: 3, 7: 1, 48: 1234567, 72: 9, 130: 2 };
    const sqlite = JSON.stringify(counts);
    const postgres = `{ ${Object.entries(counts).map(([b, n]) => `"${b}" : ${n}`).join(", ")} }`;
    for (const text of [sqlite, postgres]) {
      const h = addHistogramText(newHistogram(), text);
      for (const [bin, n] of Object.entries(counts)) expect(h[Number(bin)]).toBe(n);
      expect(h.reduce((a, b) => a + b, 0)).toBe(1234582);
    }
    expect(addHistogramText(newHistogram(), null).every((n) => n === 0)).toBe(true);
  });

  test("every bin's value lies in it; a percentile is within 5 % of the exact one, inside [min, max]", () => {
    for (let ms = 0; ms < 200_000; ms += ms < 100 ? 1 : 97) expect(binOf(binValue(binOf(ms)))).toBe(binOf(ms));
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const values = Array.from({ length: 20_000 }, () => Math.round(20 + 2000 * random() ** 3));
    const sorted = [...values].sort((a, b) => a - b);
    const h = histogramOf(values);
    for (const q of [0.5, 0.9, 0.95, 0.99]) {
      const exact = sorted[Math.ceil(q * sorted.length) - 1]!;
      const read = percentile(h, q, sorted[0]!, sorted.at(-1)!)!;
      expect(Math.abs(read - exact) / exact).toBeLessThanOrEqual(0.05);
    }
    expect(percentile(histogramOf([100]), 0.99, 100, 100)).toBe(100);
    expect(percentile(newHistogram(), 0.5)).toBeNull();
  });
});
