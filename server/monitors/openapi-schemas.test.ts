// The API docs on monitors: `settings` in requests and replies is each later type's own schema (from the registry the
// modules validate with, titled by the type, secrets described), and the later types' routes give their shapes.
import { expect, test } from "bun:test";
import type { JsonSchema, OpenApiDocument, ResponseObject } from "../http/openapi";
import { testApp } from "../test-support";
import { SETTINGS_TYPE_NAMES } from "./monitor-types";
import { settingsSchemaName } from "./openapi-schemas";
import type { PublicMonitor } from "./public";
import { SETTINGS_TYPES } from "./types/settings-registry";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
type Props = Record<string, JsonSchema>;

test("settings are documented as every later type's schema, generated from the registry, secrets described", async () => {
  const t = await testApp();
  const doc = (await (await t.app.handle(new Request("http://localhost/api/docs/json"))).json()) as OpenApiDocument;
  const schemas = doc.components.schemas;
  for (const [path, method] of [["/api/monitors", "post"], ["/api/monitors/{id}", "put"]] as const) {
    const body = doc.paths[path]![method]!.requestBody!.content["application/json"]!.schema!;
    expect((body.properties as Props).settings, `${method} ${path}`).toMatchObject(ref("MonitorSettings"));
  }
  expect(schemas.MonitorSettings!.description).toContain("`type`");
  expect(schemas.MonitorSettings!.anyOf).toEqual(SETTINGS_TYPE_NAMES.map((type) => ref(settingsSchemaName(type))));
  for (const type of SETTINGS_TYPE_NAMES) {
    const schema = schemas[settingsSchemaName(type)]!;
    expect(schema.title).toBe(type);
    expect(Object.keys(schema.properties as Props)).toEqual(Object.keys(SETTINGS_TYPES[type].schema.properties));
  }

  const postgres = schemas.PostgresSettings!;
  expect(postgres.required).toEqual(["host", "username"]);
  expect((postgres.properties as Props).host).toMatchObject({ type: "string", host: true, maxLength: 253 });
  expect((postgres.properties as Props).password).toMatchObject({ secret: true, format: "password", description: expect.stringContaining("••••••••") });
  expect((schemas.MongodbSettings!.properties as Props).connectionString).toMatchObject({ secret: "url", description: expect.stringContaining("password") });
  expect((schemas.SnmpSettings!.properties as Props).oid).toMatchObject({ type: "string", default: "1.3.6.1.2.1.1.3.0" });
  expect((schemas.SnmpSettings!.properties as Props).community).toMatchObject({ secret: true, format: "password" });

  // Replies: the monitor with its settings; the type list; a browser monitor's screenshots; a manual state.
  const reply = (path: string, method: "get" | "post" | "put", status: string) =>
    (doc.paths[path]![method]!.responses![status] as ResponseObject).content!["application/json"]!.schema;
  expect(reply("/api/monitors", "post", "201")).toEqual(ref("MonitorReply"));
  expect(reply("/api/monitors/{id}", "get", "200")).toEqual(ref("MonitorReply"));
  expect(reply("/api/monitors/{id}", "put", "200")).toEqual(ref("MonitorReply"));
  expect(reply("/api/monitors", "get", "200")).toEqual(ref("MonitorListReply"));
  expect((schemas.Monitor!.properties as Props).settings).toEqual(ref("MonitorSettings"));
  expect(reply("/api/monitors/types", "get", "200")).toEqual(ref("MonitorTypesReply"));
  expect((schemas.MonitorTypeInfo!.properties as Props).unavailable).toBeDefined();
  expect(reply("/api/monitors/{id}/screenshots", "get", "200")).toEqual(ref("ScreenshotsReply"));
  const png = doc.paths["/api/monitors/{id}/screenshots/{time}"]!.get!;
  expect(Object.keys((png.responses!["200"] as ResponseObject).content!)).toEqual(["image/png"]);
  expect(png.parameters!.map((p) => p.name).sort()).toEqual(["id", "time"]);
  const manual = doc.paths["/api/monitors/{id}/manual"]!.post!;
  expect(manual.requestBody!.content["application/json"]!.schema).toMatchObject({
    required: ["status"],
    properties: { status: { enum: ["up", "down"] }, message: { maxLength: 200 } },
  });
  expect(reply("/api/monitors/{id}/manual", "post", "200")).toEqual(ref("ManualReply"));
  expect((schemas.ManualReply!.properties as Props).result).toEqual(ref("CheckResult"));
  expect(manual.responses!["409"]).toEqual({ $ref: "#/components/responses/Conflict" });

  // What a real reply holds is what the document requires, its secret as the document says.
  const { token } = await t.signUp("alice");
  const created = await t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", {
    token,
    body: { name: "Db", type: "postgres", settings: { host: "127.0.0.1", username: "app", password: "hunter2-secret" } },
  });
  expect(created.status).toBe(201);
  for (const field of schemas.MonitorReply!.required as string[]) expect(created.body, field).toHaveProperty(field);
  for (const field of schemas.Monitor!.required as string[]) expect(created.body.monitor, field).toHaveProperty(field);
  expect(Object.keys(created.body.monitor.settings).sort()).toEqual(Object.keys(postgres.properties as Props).sort());
  expect(created.body.monitor.settings.password).toBe("••••••••");
  const manualMonitor = await t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { name: "Switch", type: "manual" } });
  const set = await t.call<{ result: Record<string, unknown> }>("POST", `/api/monitors/${manualMonitor.body.monitor.id}/manual`, { token, body: { status: "down", message: "Planned" } });
  expect(set.status).toBe(200);
  for (const field of schemas.CheckResult!.required as string[]) expect(set.body.result, field).toHaveProperty(field);
});
