import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pngToIco } from "./favicon";

describe("pngToIco", () => {
  test("one PNG image in an ICO container, with its size", () => {
    const png = new Uint8Array(readFileSync(join(import.meta.dir, "../ui/public/icons/icon-192.png")));
    const ico = pngToIco(png);
    const view = new DataView(ico.buffer);
    expect([view.getUint16(0, true), view.getUint16(2, true), view.getUint16(4, true)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7]]).toEqual([192, 192]);
    expect(view.getUint32(14, true)).toBe(png.byteLength);
    expect(view.getUint32(18, true)).toBe(22);
    expect(ico.slice(22)).toEqual(png);
  });

  test("refuses what is not a PNG", () => {
    expect(() => pngToIco(new Uint8Array(64))).toThrow(/not a PNG/);
  });
});
