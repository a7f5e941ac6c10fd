/**
 * Wraps a PNG in an ICO container (one image, stored as PNG, which every current browser reads), so /favicon.ico —
 * asked for by browsers, bookmarks and feed readers that never look at the page's <link rel=icon> — exists.
 */
export function pngToIco(png: Uint8Array): Uint8Array {
  const isPng = png[0] === 0x89 && png[1] === 0x50 && png[2] === 0x4e && png[3] === 0x47;
  if (!isPng) throw new Error("favicon: not a PNG");
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const width = view.getUint32(16); // IHDR
  const height = view.getUint32(20);
  const out = new Uint8Array(6 + 16 + png.byteLength);
  const ico = new DataView(out.buffer);
  ico.setUint16(2, 1, true); // type: icon
  ico.setUint16(4, 1, true); // one image
  out[6] = width >= 256 ? 0 : width; // 0 means 256
  out[7] = height >= 256 ? 0 : height;
  ico.setUint16(10, 1, true); // colour planes
  ico.setUint16(12, 32, true); // bits per pixel
  ico.setUint32(14, png.byteLength, true);
  ico.setUint32(18, 6 + 16, true); // offset of the image
  out.set(png, 22);
  return out;
}
