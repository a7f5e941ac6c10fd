// The later types' settings in the monitor form (unit-tested without a DOM): each type's schema
// (server/monitors/types/<type>/settings.ts) says which fields it has, their kinds, limits and defaults; the form
// keeps numbers as typed (strings) and turns them into the settings object the API takes.
import type { ParseKeys } from "i18next";
import type { TObject, TSchema } from "@sinclair/typebox";
import { SETTINGS_SCHEMAS } from "../../../server/monitors/types/settings-schemas";
import { SECRET_MASK } from "../../../server/monitors/types/settings-type";
import { isSettingsType, type MonitorType, type SettingsTypeName } from "../../../server/monitors/public";

export type SettingValue = string | boolean;
export type SettingsValues = Record<string, SettingValue>;

export type FieldKind = "text" | "secret" | "textarea" | "number" | "toggle" | "select" | "lines" | "json";

export interface SettingField {
  key: string;
  kind: FieldKind;
  required: boolean;
  /** May be left empty (text whose default is empty, an empty list): the form says "optional". */
  optional: boolean;
  options: string[];
  /** A connection string whose password is masked (shown as text; the mask sent back keeps the password). */
  secretUrl: boolean;
  schema: TSchema & Record<string, unknown>;
}

const props = (schema: TObject) => schema.properties as Record<string, TSchema & Record<string, unknown>>;

/** The fields of a type's form, in the schema's order. */
export function settingFields(type: MonitorType): SettingField[] {
  if (!isSettingsType(type)) return [];
  const schema = SETTINGS_SCHEMAS[type];
  const required = new Set(schema.required ?? []);
  return Object.entries(props(schema)).map(([key, s]) => {
    const literals = (s.anyOf as Record<string, unknown>[] | undefined)?.map((o) => o.const).filter((c): c is string => typeof c === "string") ?? [];
    const kind: FieldKind =
      literals.length > 0
        ? "select"
        : s.type === "boolean"
          ? "toggle"
          : s.type === "integer" || s.type === "number"
            ? "number"
            : s.type === "array"
              ? isNameValueList(s)
                ? "lines"
                : "json"
              : s.secret === true
                ? "secret"
                : s.format === "textarea"
                  ? "textarea"
                  : "text";
    const hasDefault = s.default !== undefined;
    const optional = !required.has(key) || (hasDefault && (s.default === "" || (Array.isArray(s.default) && s.default.length === 0)));
    return { key, kind, required: required.has(key) && !hasDefault, optional: optional && kind !== "select" && kind !== "toggle" && kind !== "number", options: literals, secretUrl: s.secret === "url", schema: s };
  });
}

/** A list of {name, value} (headers, metadata) or of plain text: edited as lines; other lists as JSON. */
function isNameValueList(s: Record<string, unknown>): boolean {
  const items = s.items as { type?: string; properties?: Record<string, unknown> } | undefined;
  if (items?.type !== "object") return true;
  return Object.keys(items.properties ?? {}).sort().join() === "name,value";
}

/** Array fields of {name, value} (headers, metadata) are edited as "Name: value" lines. */
const toLines = (value: unknown): string =>
  Array.isArray(value) ? value.map((item) => (typeof item === "object" && item ? `${(item as { name: string }).name}: ${(item as { value: string }).value}` : String(item))).join("\n") : "";

function fromLines(text: string, itemSchema: Record<string, unknown> | undefined): unknown[] {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  if (itemSchema?.type !== "object") return lines;
  return lines.map((line) => {
    const colon = line.indexOf(":");
    return colon < 0 ? { name: line, value: "" } : { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
  });
}

/** The form's values for a type: the monitor's settings, else the schema's defaults. */
export function settingsForm(type: MonitorType, settings: Record<string, unknown> = {}): SettingsValues {
  const out: SettingsValues = {};
  for (const f of settingFields(type)) {
    const value = settings[f.key] ?? f.schema.default;
    if (f.kind === "toggle") out[f.key] = value === true;
    else if (f.kind === "lines") out[f.key] = toLines(value);
    else if (f.kind === "json") out[f.key] = Array.isArray(value) && value.length === 0 ? "" : JSON.stringify(value ?? [], null, 2);
    else out[f.key] = value === undefined || value === null ? "" : String(value);
  }
  return out;
}

/** What each field's problem is, as i18n keys (the schema's limits; the server judges the rest). */
export function validateSettingsForm(type: MonitorType, values: SettingsValues): Partial<Record<string, ParseKeys>> {
  const errors: Partial<Record<string, ParseKeys>> = {};
  for (const f of settingFields(type)) {
    const raw = values[f.key];
    if (typeof raw !== "string") continue;
    const text = raw.trim();
    const key = `settings.${f.key}`;
    if (text === "") {
      if (f.required || (typeof f.schema.minLength === "number" && f.schema.minLength > 0)) errors[key] = "monitors.settingsForm.required";
      continue;
    }
    if (f.kind === "json") {
      if (!parsesAsList(text)) errors[key] = "monitors.settingsForm.jsonInvalid";
    } else if (f.kind === "number") {
      const n = Number(text);
      const min = f.schema.minimum as number | undefined;
      const max = f.schema.maximum as number | undefined;
      if (!/^-?\d+(\.\d+)?$/.test(text) || (f.schema.type === "integer" && !Number.isInteger(n)) || (min !== undefined && n < min) || (max !== undefined && n > max)) {
        errors[key] = "monitors.settingsForm.numberInvalid";
      }
    } else if (typeof f.schema.maxLength === "number" && raw.length > f.schema.maxLength) {
      errors[key] = "monitors.settingsForm.tooLong";
    }
  }
  return errors;
}

function parsesAsList(text: string): boolean {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

/** The range a number field takes, for its hint. */
export const numberRange = (f: SettingField) => ({ min: f.schema.minimum as number | undefined, max: f.schema.maximum as number | undefined });

/** The settings object sent: numbers as numbers, lines as lists, an optional field left empty as its default. */
export function settingsInput(type: SettingsTypeName, values: SettingsValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of settingFields(type)) {
    const value = values[f.key];
    if (value === undefined) continue;
    if (f.kind === "toggle") out[f.key] = value === true;
    else if (f.kind === "number") {
      const text = String(value).trim();
      if (text !== "") out[f.key] = Number(text);
      else if (f.schema.default !== undefined) out[f.key] = f.schema.default;
    } else if (f.kind === "lines") out[f.key] = fromLines(String(value), f.schema.items as Record<string, unknown> | undefined);
    else if (f.kind === "json") out[f.key] = String(value).trim() === "" ? [] : JSON.parse(String(value));
    else out[f.key] = f.kind === "textarea" || f.kind === "secret" ? value : String(value).trim();
  }
  return out;
}

/** A secret the server sent masked: the form shows it as set, and sending it back keeps it. */
export const isMaskedSecret = (value: SettingValue) => value === SECRET_MASK;
