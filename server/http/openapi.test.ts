// The API docs: the page, and an OpenAPI document that lists every REST route of the app's own route table, with
// its tag, summary, credential, request schemas and the shared envelopes.
import { describe, expect, test } from "bun:test";
import { testApp } from "../test-support";
import { documentedPath, isDocumented, METHODS, type OpenApiDocument, type Operation, type ResponseObject } from "./openapi";

type Setup = Awaited<ReturnType<typeof testApp>>;

async function getDocument(t: Setup): Promise<OpenApiDocument> {
  const res = await t.app.handle(new Request("http://localhost/api/docs/json"));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as OpenApiDocument;
}

function operations(doc: OpenApiDocument): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method: method.toUpperCase(), path, op: item[method]! })),
  );
}

/** A concrete URL for a documented path: ids become 1, the badge file a badge name. */
const concrete = (path: string) => path.replace("{file}", "1.svg").replace(/\{[^}]+\}/g, "1");

/** Follows a local JSON pointer ("#/components/schemas/Error"). */
function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split("/")) {
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  }
  return node;
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, out);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

describe("API docs", () => {
  test("/api/docs is a self-contained HTML page, public, under the app's own CSP, gzipped on request", async () => {
    const t = await testApp();
    const res = await t.app.handle(new Request("http://localhost/api/docs"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // The same strict policy as the UI: no script at all is allowed inline, and none is needed.
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self';");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    expect(html).toStartWith("<!doctype html>");
    expect(html).not.toContain("<script");
    // Nothing loaded from elsewhere: Vigil runs on servers without internet.
    expect(html).not.toMatch(/<link|src=|url\(|@import/i);
    expect(html).not.toMatch(/https?:\/\//);
    for (const { path } of operations(await getDocument(t))) expect(html).toContain(`<code class="path">${path}</code>`);

    const zipped = await t.app.handle(new Request("http://localhost/api/docs", { headers: { "accept-encoding": "gzip, br" } }));
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer())))).toBe(html);
  });

  test("the document is well-formed OpenAPI 3.x: unique operation ids, declared path parameters, every $ref resolves", async () => {
    const doc = await getDocument(await testApp());
    expect(doc.openapi).toMatch(/^3\.[01]\.\d+$/);
    expect(doc.info.title).toBe("Vigil API");
    expect(typeof doc.info.version).toBe("string");
    const ids = new Set<string>();
    const tagNames = new Set(doc.tags.map((tag) => tag.name));
    for (const { method, path, op } of operations(doc)) {
      const where = `${method} ${path}`;
      expect(path, where).toStartWith("/");
      expect(op.operationId, where).toBeString();
      expect(ids.has(op.operationId!), `duplicate operationId ${op.operationId}`).toBe(false);
      ids.add(op.operationId!);
      // Path templates and path parameters match one to one.
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), where).toEqual(templated);
      for (const p of declared) expect(p.required, where).toBe(true);
      // Responses: status codes or ranges, each with a description or a reference to one.
      expect(Object.keys(op.responses ?? {}).length, where).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(op.responses!)) {
        expect(status, where).toMatch(/^([1-5]XX|[1-5]\d\d|default)$/);
        expect("$ref" in response || typeof response.description === "string", `${where} ${status}`).toBe(true);
      }
      // Bodies are JSON only: the server parses nothing else.
      if (op.requestBody) expect(Object.keys(op.requestBody.content), where).toEqual(["application/json"]);
      for (const requirement of op.security ?? []) {
        for (const scheme of Object.keys(requirement)) expect(doc.components.securitySchemes[scheme], `${where} ${scheme}`).toBeDefined();
      }
      for (const tag of op.tags ?? []) expect(tagNames.has(tag), `${where}: undeclared tag ${tag}`).toBe(true);
    }
    for (const ref of collectRefs(doc)) expect(resolvePointer(doc, ref), ref).toBeDefined();
    for (const scheme of Object.values(doc.components.securitySchemes)) expect(scheme).toMatchObject({ type: "http", scheme: "bearer" });
  });

  test("every REST route of the app's route table is documented, with a feature tag and a summary", async () => {
    const t = await testApp();
    const doc = await getDocument(t);
    const documented = new Set(operations(doc).map(({ method, path }) => `${method} ${path.replace(/\{([^}]+)\}/g, ":$1")}`));
    const routes = t.app.routes.filter((route) => route.method !== "WS" && !route.path.includes("*"));
    // Hidden on purpose: the docs themselves, and the agents' file downloads (not REST calls).
    const hidden = routes.filter((route) => !isDocumented(route)).map((route) => `${route.method} ${route.path}`);
    expect(hidden.sort()).toEqual(["GET /api/docs", "GET /api/docs/json", "GET /downloads/:file", "GET /install.sh"]);
    const expected = routes.filter(isDocumented).map((route) => `${route.method} ${documentedPath(route.path)}`);
    expect([...documented].sort()).toEqual([...new Set(expected)].sort());
    // Every /api route but the docs and the catch-all: checked on the raw table too, so no rule above can hide one.
    for (const route of t.app.routes) {
      if (!route.path.startsWith("/api/") || route.method === "WS" || route.path.includes("*") || route.path.startsWith("/api/docs")) continue;
      expect(documented.has(`${route.method} ${documentedPath(route.path)}`), `${route.method} ${route.path}`).toBe(true);
    }
    for (const { method, path, op } of operations(doc)) {
      expect(op.tags?.length, `${method} ${path} has no tag`).toBe(1);
      expect(op.summary?.trim(), `${method} ${path} has no summary`).toBeTruthy();
    }
    // The WebSocket is no REST call.
    expect(doc.paths["/api/live"]).toBeUndefined();
  });

  test("a route declares bearer security exactly when it refuses anonymous callers; admin-only ones say so", async () => {
    const t = await testApp();
    await t.signUp("alice");
    const { token: userToken } = await t.signUp("bob");
    const doc = await getDocument(t);
    let secured = 0;
    for (const { method, path, op } of operations(doc)) {
      const where = `${method} ${path}`;
      const anonymous = await t.call(method, concrete(path));
      const needsSignIn = (op.security?.length ?? 0) > 0;
      if (needsSignIn) {
        secured++;
        expect(anonymous.status, where).toBe(401);
        expect(anonymous.body).toMatchObject({ success: false, code: expect.any(String), message: expect.any(String) });
        expect(op.responses?.["401"], where).toEqual({ $ref: "#/components/responses/Unauthorized" });
      } else {
        expect(anonymous.status, where).not.toBe(401);
      }
      // Admin-only routes carry the "admin" role on every credential they take; a plain user is refused them.
      const adminOnly = op.security?.every((requirement) => Object.values(requirement).every((roles) => roles.includes("admin"))) ?? false;
      if (needsSignIn && op["x-vigil-access"] !== "agent") {
        const asUser = await t.call(method, concrete(path), { token: userToken, body: {} });
        if (adminOnly) expect(asUser.status, where).toBe(403);
        else expect(asUser.status, where).not.toBe(401);
      }
    }
    expect(secured).toBeGreaterThan(40);
    // Spot checks of the three credentials.
    expect(doc.paths["/api/monitors"]!.get!.security).toEqual([{ session: [] }, { apiToken: [] }]);
    expect(doc.paths["/api/users"]!.get!.security).toEqual([{ session: ["admin"] }, { apiToken: ["admin"] }]);
    expect(doc.paths["/api/tokens"]!.post!.security).toEqual([{ session: [] }]);
    expect(doc.paths["/api/agents/report"]!.post!.security).toEqual([{ agentCredential: [] }]);
    expect(doc.paths["/api/auth/login"]!.post!.security).toBeUndefined();
    // The scope an API token needs, where tokens are taken: read for GET, write for changes, full for accounts.
    expect(doc.paths["/api/monitors"]!.get!["x-vigil-token-scope"]).toBe("read");
    expect(doc.paths["/api/monitors"]!.post!["x-vigil-token-scope"]).toBe("write");
    expect(doc.paths["/api/users"]!.get!["x-vigil-token-scope"]).toBe("full");
    expect(doc.paths["/api/users/{id}/change-password"]!.post!["x-vigil-token-scope"]).toBe("full");
    expect(doc.paths["/api/tokens"]!.post!["x-vigil-token-scope"]).toBeUndefined();
    expect(doc.paths["/api/monitors"]!.post!.responses!["403"]).toEqual({ $ref: "#/components/responses/Forbidden" });
  });

  test("the envelopes are shared components every operation refers to", async () => {
    const doc = await getDocument(await testApp());
    expect(doc.components.schemas.Error).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["success", "message"]),
      properties: { success: { const: false }, message: { type: "string" } },
    });
    expect(doc.components.schemas.Success).toMatchObject({ type: "object", required: ["success"], properties: { success: { const: true } } });
    const errorSchema = { $ref: "#/components/schemas/Error" };
    for (const [status, name] of [["400", "BadRequest"], ["401", "Unauthorized"], ["403", "Forbidden"], ["404", "NotFound"], ["409", "Conflict"]]) {
      expect(doc.components.responses[name]?.content?.["application/json"]?.schema, status).toEqual(errorSchema);
    }
    for (const { method, path, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses!)) {
        // Errors are never spelled out per route: always the one shared envelope.
        if (status.startsWith("4") || status.startsWith("5")) expect("$ref" in response, `${method} ${path} ${status}`).toBe(true);
      }
    }
    // The usual JSON reply is the success envelope; the few other kinds say what they are.
    expect(doc.paths["/api/users"]!.get!.responses!["2XX"]).toEqual({ $ref: "#/components/responses/Success" });
    const badge = doc.paths["/api/status/badge/{file}"]!.get!.responses!["200"] as ResponseObject;
    expect(Object.keys(badge.content!)).toEqual(["image/svg+xml"]);
    // Error statuses the route table cannot tell, declared by the routes.
    expect(doc.paths["/api/users"]!.post!.responses!["409"]).toEqual({ $ref: "#/components/responses/Conflict" });
    expect(doc.paths["/api/monitors/{id}"]!.get!.responses!["404"]).toEqual({ $ref: "#/components/responses/NotFound" });
  });

  test("request schemas are the ones that validate the requests", async () => {
    const t = await testApp();
    const doc = await getDocument(t);
    const create = doc.paths["/api/monitors"]!.post!.requestBody!.content["application/json"]!.schema!;
    expect(create).toMatchObject({ type: "object", required: ["name"] });
    expect(Object.keys(create.properties as object)).toEqual(expect.arrayContaining(["name", "url", "interval", "timeout", "expectedStatus", "headers"]));
    expect((create.properties as Record<string, { maxLength?: number }>).name!.maxLength).toBe(100);
    // The document's limit is the validator's: one character more is refused.
    const { token } = await t.signUp("alice");
    const tooLong = await t.call("POST", "/api/monitors", { token, body: { name: "x".repeat(101), url: "http://127.0.0.1:9/" } });
    expect(tooLong.status).toBe(400);
    const series = doc.paths["/api/monitors/{id}/series"]!.get!.parameters!;
    expect(series.find((p) => p.name === "range")).toMatchObject({ in: "query", required: false });
    expect(series.find((p) => p.name === "id")).toMatchObject({ in: "path", required: true });
  });

  test("the docs show no data: names, emails and secrets stay out of them", async () => {
    const t = await testApp();
    const { token } = await t.signUp("alice-7f3a", "alice-7f3a@example.com");
    expect((await t.call("POST", "/api/monitors", { token, body: { name: "Secret-Monitor-9c2e", url: "http://10.0.0.9:8080/private-path-5d1b" } })).status).toBe(201);
    for (const path of ["/api/docs", "/api/docs/json"]) {
      const text = await (await t.app.handle(new Request(`http://localhost${path}`))).text();
      for (const secret of ["alice-7f3a", "Secret-Monitor-9c2e", "private-path-5d1b", "10.0.0.9", token]) expect(text, path).not.toContain(secret);
    }
  });
});
