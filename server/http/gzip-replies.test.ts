import { describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { testApp } from "../test-support";

// Every JSON reply the API makes is gzipped when the client takes it and is worth it (server/http/compression.ts).

async function raw(app: Awaited<ReturnType<typeof testApp>>["app"], path: string, headers: Record<string, string>) {
  return app.handle(new Request(`http://localhost${path}`, { headers }));
}

describe("gzip for the API's JSON", () => {
  test("a large list comes gzipped when asked, the same JSON as plain, with the security and caching headers", async () => {
    const t = await testApp();
    const { token } = await t.signUp("alice");
    for (let i = 0; i < 30; i++) {
      const r = await t.call("POST", "/api/monitors", { token, body: { name: `Monitor number ${i}`, type: "http", url: `https://example.com/${i}` } });
      expect(r.status).toBe(201);
    }
    const auth = { authorization: `Bearer ${token}` };
    const plain = await raw(t.app, "/api/monitors", auth);
    expect(plain.headers.get("content-encoding")).toBeNull();
    const plainJson = await plain.json();
    expect(plainJson.monitors).toHaveLength(30);

    const zipped = await raw(t.app, "/api/monitors", { ...auth, "accept-encoding": "gzip, deflate, br" });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toContain("accept-encoding");
    expect(zipped.headers.get("content-type")).toContain("application/json");
    expect(zipped.headers.get("cache-control")).toBe("no-store");
    expect(zipped.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    const unzipped = JSON.parse(gunzipSync(bytes).toString("utf8"));
    expect(unzipped).toEqual(plainJson);
    expect(bytes.byteLength).toBeLessThan(JSON.stringify(plainJson).length / 3);
  });

  test("small replies, refused gzip (q=0) and errors go as they are; an error keeps its status", async () => {
    const t = await testApp();
    const { token } = await t.signUp("alice");
    const auth = { authorization: `Bearer ${token}`, "accept-encoding": "gzip" };
    const small = await raw(t.app, "/api/monitors", auth);
    expect(small.headers.get("content-encoding")).toBeNull();
    expect((await small.json()).monitors).toEqual([]);
    for (let i = 0; i < 30; i++) await t.call("POST", "/api/monitors", { token, body: { name: `Monitor number ${i}`, type: "http", url: `https://example.com/${i}` } });
    const refused = await raw(t.app, "/api/monitors", { ...auth, "accept-encoding": "gzip;q=0, identity" });
    expect(refused.headers.get("content-encoding")).toBeNull();
    expect((await refused.json()).monitors).toHaveLength(30);
    const missing = await raw(t.app, "/api/monitors/999999", auth);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ success: false });
    const unsigned = await raw(t.app, "/api/monitors", { "accept-encoding": "gzip" });
    expect(unsigned.status).toBe(401);
    // Refused before any handler runs (onRequest): the reply keeps its JSON (a mapResponse hook once emptied it).
    const body = JSON.stringify({ pad: "x".repeat(1024 * 1024) });
    const tooLarge = await t.app.handle(
      new Request("http://localhost/api/agents/report", { method: "POST", headers: { "content-type": "application/json", "accept-encoding": "gzip", "content-length": String(body.length) }, body }),
    );
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ success: false, code: "BODY_TOO_LARGE", maxBytes: 1024 * 1024 });
  });
});
