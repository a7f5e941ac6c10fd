// The settings object every later type shares: validated by its schema (defaults, limits, the field's own message),
// secrets masked in replies, kept when sent back masked or left out, and scrubbed from error sentences.
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { HttpError } from "../../http/http-error";
import { validateSettings } from "./settings-adapter";
import { keepSecrets, maskSettings, maskUrlPassword, scrub, secretValues, SECRET_MASK, type AnySettingsType } from "./settings-type";

const schema = Type.Object({
  host: Type.String({ minLength: 1, maxLength: 20, error: "Host is required", host: true }),
  port: Type.Integer({ minimum: 1, maximum: 65535, default: 5432, error: "Port must be 1-65535" }),
  password: Type.String({ default: "", secret: true }),
  url: Type.String({ default: "", secret: "url" }),
  mode: Type.Union([Type.Literal("a"), Type.Literal("b")], { default: "a" }),
});
const module = { type: "fake", schema, runsOnAgents: false, check: async () => ({ up: true, responseTime: 1, error: null }), target: () => "" } as unknown as AnySettingsType;

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof HttpError ? { status: e.status, message: e.message } : { status: 0, message: String(e) };
  }
  return null;
};

describe("validation", () => {
  test("defaults fill what is left out", () => {
    expect(validateSettings(module, { host: "db" })).toEqual({ host: "db", port: 5432, password: "", url: "", mode: "a" });
  });
  test("the first wrong field's own message, a 400", () => {
    expect(refusal(() => validateSettings(module, {}))).toEqual({ status: 400, message: "Host is required" });
    expect(refusal(() => validateSettings(module, { host: "db", port: 70_000 }))).toEqual({ status: 400, message: "Port must be 1-65535" });
    expect(refusal(() => validateSettings(module, { host: "db", port: "5432" }))?.status).toBe(400);
    expect(refusal(() => validateSettings(module, { host: "db", mode: "c" }))?.message).toContain("settings.mode");
    expect(refusal(() => validateSettings(module, { host: "db", extra: 1 }))?.message).toBe("Unknown setting for a fake monitor: extra");
  });
});

describe("secrets", () => {
  const stored = { host: "db", port: 5432, password: "hunter2-long", url: "postgres://app:s3cr%40t@db:5432/app", mode: "a" };
  test("masked in replies: a password whole, a connection string's password only", () => {
    expect(maskSettings(schema, stored)).toEqual({ ...stored, password: SECRET_MASK, url: `postgres://app:${SECRET_MASK}@db:5432/app` });
    expect(maskSettings(schema, { ...stored, password: "" }).password).toBe("");
    expect(maskUrlPassword("redis://db:6379")).toBe("redis://db:6379");
  });
  test("kept when sent back masked or left out; replaced when changed", () => {
    const masked = maskSettings(schema, stored);
    expect(keepSecrets(schema, stored, masked)).toEqual(stored);
    expect(keepSecrets(schema, stored, { host: "db" })).toMatchObject({ password: stored.password, url: stored.url });
    expect(keepSecrets(schema, stored, { ...masked, password: "new-one" }).password).toBe("new-one");
    expect(keepSecrets(schema, stored, { ...masked, url: "postgres://app:other@db/app" }).url).toBe("postgres://app:other@db/app");
  });
  test("scrubbed from sentences, encoded or not", () => {
    const secrets = secretValues(schema, stored);
    expect(scrub('query failed: password "hunter2-long" rejected for s3cr@t', secrets)).toBe(`query failed: password "${SECRET_MASK}" rejected for ${SECRET_MASK}`);
  });
});

describe("every later type", () => {
  test("is registered with its schema and labels every field in both languages", async () => {
    const { SETTINGS_SCHEMAS } = await import("./settings-schemas");
    const { SETTINGS_TYPE_I18N } = await import("./settings-i18n");
    const { SETTINGS_TYPES } = await import("./settings-registry");
    const { SETTINGS_TYPE_NAMES, runsOnAgents } = await import("../public");
    for (const type of SETTINGS_TYPE_NAMES) {
      expect(SETTINGS_TYPES[type].schema).toBe(SETTINGS_SCHEMAS[type]);
      expect(SETTINGS_TYPES[type].runsOnAgents).toBe(runsOnAgents(type));
      const fields = Object.keys(SETTINGS_SCHEMAS[type].properties).sort();
      for (const lang of ["en-US", "zh-CN"] as const) {
        const labels = SETTINGS_TYPE_I18N[type][lang];
        expect(labels.name.length).toBeGreaterThan(0);
        expect(labels.description.length).toBeGreaterThan(0);
        // Every field labelled (nested ones, "steps.action", may add their own).
        expect(fields.filter((f) => !(f in labels.fields))).toEqual([]);
        expect(Object.keys(labels.fields).sort()).toEqual(Object.keys(SETTINGS_TYPE_I18N[type]["en-US"].fields).sort());
      }
      expect(Object.keys(SETTINGS_TYPE_I18N[type]["zh-CN"].options ?? {}).sort()).toEqual(Object.keys(SETTINGS_TYPE_I18N[type]["en-US"].options ?? {}).sort());
    }
  });
});
