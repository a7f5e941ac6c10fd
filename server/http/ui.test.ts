import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testApp } from "../test-support";

const dir = mkdtempSync(join(tmpdir(), "vigil-ui-"));
mkdirSync(join(dir, "assets"));
writeFileSync(join(dir, "index.html"), `<!doctype html><title>Vigil</title>${"<!-- padding -->".repeat(100)}`);
writeFileSync(join(dir, "assets", "main-abcd1234.js"), `console.log("app");${" ".repeat(2000)}`);
writeFileSync(join(dir, "sw.js"), "self.addEventListener('fetch', () => {});");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { app } = await testApp({ uiDir: dir });
const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost${path}`, { headers }));

describe("UI serving", () => {
  test("deep links get index.html, uncached", async () => {
    for (const path of ["/", "/users/3", "/monitors/create", "/no/such/page"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(await res.text()).toContain("<title>Vigil</title>");
    }
  });

  test("hashed assets are cached for good and gzipped when asked", async () => {
    const res = await get("/assets/main-abcd1234.js", { "accept-encoding": "gzip, br" });
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer())))).toStartWith('console.log("app")');
    const plain = await get("/assets/main-abcd1234.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
  });

  test("ETags give 304", async () => {
    const first = await get("/sw.js");
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const again = await get("/sw.js", { "if-none-match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  test("an acknowledgement link's page is a page, though its token has dots", async () => {
    const res = await get("/ack/eyJhbGciOiJIUzI1NiJ9.eyJraW5kIjoiYWNrIn0.c2lnbmF0dXJl");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
  });

  test("a missing file is a 404, an unknown API path a JSON 404", async () => {
    expect((await get("/assets/missing-12345678.js")).status).toBe(404);
    const api = await get("/api/missing");
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ success: false, code: "NOT_FOUND" });
  });

  test("security headers are on every reply", async () => {
    for (const path of ["/", "/api/config", "/api/missing"]) {
      const res = await get(path);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    }
  });
});
