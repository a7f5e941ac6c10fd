// Planning: the WHOLE file is validated first — the schema (the API's own field schemas), keys, references, then each
// monitor by the API's rules (model.ts resolver) — and every problem comes back with its line and field path; only a
// valid file gets a plan. The plan compares each entry's file form with the database's (state.ts), field by field.
import { Value, ValueErrorType } from "@sinclair/typebox/value";
import type { Orm } from "../db/database";
import type { Tables } from "../db/pg-schema";
import { HttpError } from "../http/http-error";
import type { MonitorFields } from "../monitors/field-rules";
import { MAINTENANCE_WINDOWS_MAX } from "../maintenance/public";
import { MAX_DEPTH } from "../monitors/groups";
import { invalidFile, readFile, type FileProblem, type ParsedFile, type Path } from "./document";
import { createResolver, hashForm, monitorForm, stable, tagForm, type FileObject, type Form } from "./model";
import { fileSchema, SECTIONS, type Kind, type Section } from "./schema";
import { SECTION_DEFS, secretsOf, sectionOf } from "./sections";
import { notifyForm } from "./sections/notify";
import { PasswordBook } from "./sections/passwords";
import { EntryProblem } from "./sections/section";
import { readState, type CurrentObject, type Link, type State } from "./state";
import type { TargetPolicy } from "../net/targets";

export interface FieldChange {
  path: string;
  old?: unknown;
  new?: unknown;
  /** A secret: its values are never shown ("(secret changed)"). */
  secret?: boolean;
}

export interface PlanItem {
  kind: Kind;
  key: string;
  name: string;
  action: "create" | "change" | "delete";
  /** The object's id (a tag's name); null for one still to create. */
  objectId: string | null;
  /** Changed since the last apply (in the UI or the API): this apply puts the file's version back. */
  drift: boolean;
  /** An object no file managed yet, matched by the key export gave it: managed from now on. */
  adopt: boolean;
  changes: FieldChange[];
}

export interface ConfigPlan {
  items: PlanItem[];
  counts: { create: number; change: number; delete: number; unchanged: number };
  /** Managed objects the file no longer has, left in place (prune deletes them). */
  notInFile: { kind: Kind; key: string; name: string }[];
}

/** An entry of the file, resolved: what apply writes. */
export interface Desired extends FileObject {
  fields?: MonitorFields;
  current?: CurrentObject;
  hash: string;
}

export interface Planned {
  plan: ConfigPlan;
  desired: Desired[];
  deletes: CurrentObject[];
  /** Links to rewrite (new or changed hash) and links to drop (pruned, or their object gone). */
  staleLinks: Link[];
}

export interface PlanOptions {
  /** Passwords checked and hashed so far (apply plans before its transaction to fill it). */
  passwords?: PasswordBook;
  prune?: boolean;
  env?: Record<string, string | undefined>;
  policy: TargetPolicy;
}

const pointerPath = (pointer: string): Path =>
  pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));

/** The schema's verdict: every error, with the field's own message where the API declares one. */
function schemaProblems(file: ParsedFile): FileProblem[] {
  const out: FileProblem[] = [];
  for (const e of Value.Errors(fileSchema, file.value)) {
    const declared = (e.schema as { error?: unknown }).error;
    const path = pointerPath(e.path);
    // An unknown field: point at its key.
    if (e.type === ValueErrorType.ObjectAdditionalProperties) {
      out.push(file.at(path, `unknown field "${path.at(-1)}"`, { key: true }));
      continue;
    }
    out.push(file.at(path, typeof declared === "string" ? declared : e.message.toLowerCase()));
    if (out.length >= 50) break;
  }
  // One message per place: a union's branches each say why.
  return out.filter((p, i) => out.findIndex((q) => q.path === p.path && q.line === p.line) === i);
}

/** The entry's field a refusal names (the API's messages name the field: "Timeout must be…"), for the error's path. */
function fieldNamed(message: string, entry: Form): string | null {
  const words = message.toLowerCase();
  const fields = Object.keys(entry).filter((f) => f !== "key" && f !== "name");
  return fields.find((f) => new RegExp(`\\b${f.toLowerCase()}\\b`).test(words)) ?? null;
}

function diff(kind: Kind, before: Form, after: Form): FieldChange[] {
  const secrets = secretsOf(kind, Object.keys(after).length ? after : before);
  const out: FieldChange[] = [];
  const compare = (path: string, a: unknown, b: unknown) => {
    if (stable(a) === stable(b)) return;
    out.push(secrets.has(path) ? { path, secret: true } : { path, old: a ?? null, new: b ?? null });
  };
  for (const field of [...new Set([...Object.keys(before), ...Object.keys(after)])]) {
    const a = before[field];
    const b = after[field];
    // Settings, a channel's config and a window's schedule field by field (a create's too): a secret among them is never shown.
    if ((field === "settings" || field === "config" || field === "schedule") && (a || b)) {
      const x = (a ?? {}) as Form;
      const y = (b ?? {}) as Form;
      for (const s of [...new Set([...Object.keys(x), ...Object.keys(y)])]) compare(`${field}.${s}`, x[s], y[s]);
    } else compare(field, a, b);
  }
  return out;
}

/** Validates the file (throwing one 400 with every problem) and plans it against the database. */
export async function planConfig(orm: Orm, t: Tables, text: string, options: PlanOptions): Promise<Planned> {
  const file = readFile(text, options.env ?? {});
  const problems = schemaProblems(file);
  if (problems.length) throw invalidFile(problems);
  const doc = Value.Decode(fileSchema, file.value);
  const passwords = options.passwords ?? new PasswordBook();
  const state = await readState(orm, t);
  const resolver = createResolver(options.policy);
  try {
    const desired = await resolveEntries(doc as unknown as Record<Section, Form[] | undefined>, file, resolver, state, options.policy);
    // A section's stored form made comparable (a status page's password hash checked against the file's password).
    for (const d of desired) {
      const def = sectionOf(d.kind);
      const current = state.byKey(d.kind, d.key);
      const form = await def?.reconcile?.(current?.form, d.form, passwords);
      if (current && form) current.form = form;
    }
    const planned = plan(state, desired, options.prune === true);
    // The API's limit on windows in all (what is there, plus what the file creates, less what it deletes).
    const windows = (action: PlanItem["action"]) => planned.plan.items.filter((i) => i.kind === "maintenance" && i.action === action).length;
    const total = state.objects.filter((o) => o.kind === "maintenance").length + windows("create") - windows("delete");
    if (total > MAINTENANCE_WINDOWS_MAX) throw invalidFile([file.at(["maintenance"], `at most ${MAINTENANCE_WINDOWS_MAX} maintenance windows in all: applying this file would make ${total}`)]);
    return planned;
  } finally {
    await resolver.close();
  }
}

async function resolveEntries(doc: Record<Section, Form[] | undefined>, file: ParsedFile, resolver: ReturnType<typeof createResolver>, state: State, policy: TargetPolicy): Promise<Desired[]> {
  const problems: FileProblem[] = [];
  const at = (section: Section, i: number, field: string | null, message: string) => problems.push(file.at(field ? [section, i, field] : [section, i], message));

  // Keys: unique per kind, monitors and groups together (dependsOn names either); tag names unique without case.
  const seen = new Map<string, string>();
  const tagNames = new Set<string>();
  const keyField = (section: Section) => SECTION_DEFS.find((d) => d.section === section)?.keyField ?? "key";
  for (const section of Object.keys(SECTIONS) as Section[]) {
    (doc[section] ?? []).forEach((entry, i) => {
      const space = section === "groups" ? "monitor" : SECTIONS[section];
      const k = keyField(section);
      const id = `${space}\0${entry[k]}`;
      if (seen.has(id)) at(section, i, k, `duplicate ${k} "${entry[k]}" (also ${seen.get(id)})`);
      else seen.set(id, `${section}[${i}]`);
      if (section === "tags") {
        const lower = String(entry.name).toLowerCase();
        if (tagNames.has(lower)) at(section, i, "name", `duplicate tag name "${entry.name}"`);
        tagNames.add(lower);
      }
    });
  }

  const groups = new Map((doc.groups ?? []).map((g) => [g.key as string, g]));
  const monitorKeys = new Set([...(doc.monitors ?? []), ...(doc.groups ?? [])].map((m) => m.key as string));
  const channelKeys = new Set((doc.channels ?? []).map((c) => c.key as string));
  const desired: Desired[] = [];
  for (const section of ["groups", "monitors"] as const) {
    (doc[section] ?? []).forEach((entry, i) => {
      const kind = SECTIONS[section] as "monitor" | "group";
      if (kind === "monitor" && entry.type === "group") return at(section, i, "type", 'a group goes in "groups:", not "monitors:"');
      const group = (entry.group as string | undefined) ?? null;
      if (group !== null && !groups.has(group)) at(section, i, "group", `no group has the key "${group}"`);
      const dependsOn = [...new Set((entry.dependsOn as string[] | undefined) ?? [])];
      dependsOn.forEach((d, j) => {
        if (d === entry.key) problems.push(file.at([section, i, "dependsOn", j], "a monitor cannot depend on itself"));
        else if (!monitorKeys.has(d)) problems.push(file.at([section, i, "dependsOn", j], `no monitor or group has the key "${d}"`));
      });
      const notify = notifyForm(entry.notify);
      ((entry.notify as Form | undefined)?.channels as string[] | undefined)?.forEach((c, j) => {
        if (!channelKeys.has(c)) problems.push(file.at([section, i, "notify", "channels", j], `no channel has the key "${c}"`));
      });
      let fields: MonitorFields;
      try {
        fields = resolver.resolve(kind, entry);
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        return at(section, i, fieldNamed(e.message, entry), e.message);
      }
      const form = monitorForm(kind, fields, { group, dependsOn, notify });
      desired.push({ kind, key: entry.key as string, name: fields.name, form, fields, hash: hashForm(form) });
    });
  }
  (doc.tags ?? []).forEach((entry) => {
    const form = tagForm(entry.name as string, entry.color as string);
    desired.push({ kind: "tag", key: entry.key as string, name: entry.name as string, form, hash: hashForm(form) });
  });

  const now = Date.now();
  for (const def of SECTION_DEFS) {
    for (const [i, entry] of (doc[def.section] ?? []).entries()) {
      const key = entry[def.keyField] as string;
      const current = state.byKey(def.kind, key)?.row;
      try {
        const form = await def.resolve(entry, { policy, monitorKeys, current, now });
        desired.push({ kind: def.kind, key, name: String(form.name || form.title || key), form, hash: hashForm(form) });
      } catch (e) {
        if (e instanceof EntryProblem) problems.push(file.at([def.section, i, ...e.field], e.message));
        else if (e instanceof HttpError) at(def.section, i, fieldNamed(e.message, entry), e.message);
        else throw e;
      }
    }
  }

  // Groups nest without cycles, at most MAX_DEPTH deep; dependencies make no cycle (the API's own rules, by key).
  const parentOf = (key: string) => (groups.get(key)?.group as string | undefined) ?? null;
  (doc.groups ?? []).forEach((g, i) => {
    const chain = [g.key as string];
    for (let p = parentOf(g.key as string); p !== null; p = parentOf(p)) {
      if (chain.includes(p)) return at("groups", i, "group", `groups would contain each other: ${[...chain, p].join(" → ")}`);
      chain.push(p);
      if (chain.length >= MAX_DEPTH) return at("groups", i, "group", `groups nest at most ${MAX_DEPTH} deep`);
    }
  });
  const depsOf = new Map([...(doc.monitors ?? []), ...(doc.groups ?? [])].map((m) => [m.key as string, (m.dependsOn as string[] | undefined) ?? []]));
  const cycleFrom = (start: string): string[] | null => {
    const walk = (key: string, path: string[]): string[] | null => {
      for (const next of depsOf.get(key) ?? []) {
        if (next === start) return [...path, next];
        if (path.includes(next)) continue;
        const found = walk(next, [...path, next]);
        if (found) return found;
      }
      return null;
    };
    return walk(start, [start]);
  };
  for (const section of ["monitors", "groups"] as const) {
    (doc[section] ?? []).forEach((m, i) => {
      const cycle = cycleFrom(m.key as string);
      if (cycle && cycle.length > 2) at(section, i, "dependsOn", `this would make a cycle of dependencies: ${cycle.join(" → ")}`);
    });
  }
  if (problems.length) throw invalidFile(problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
  return desired;
}

function plan(state: State, desired: Desired[], prune: boolean): Planned {
  const items: PlanItem[] = [];
  let unchanged = 0;
  const staleLinks: Link[] = [];
  for (const d of desired) {
    const current = state.byKey(d.kind, d.key);
    d.current = current;
    if (!current) {
      items.push({ kind: d.kind, key: d.key, name: d.name, action: "create", objectId: null, drift: false, adopt: false, changes: diff(d.kind, {}, d.form) });
      continue;
    }
    const changes = diff(d.kind, current.form, d.form);
    // Nothing to change: the link (if rewritten) records what is stored.
    if (changes.length === 0) d.hash = current.hash;
    const adopt = current.link === null;
    if (changes.length === 0 && !adopt) {
      unchanged++;
      continue;
    }
    const drift = current.link !== null && current.link.appliedHash !== current.hash;
    items.push({ kind: d.kind, key: d.key, name: d.name, action: "change", objectId: current.objectId, drift, adopt, changes });
  }
  const inFile = new Set(desired.map((d) => `${d.kind}\0${d.key}`));
  const leftOver = state.objects.filter((o) => o.link !== null && !inFile.has(`${o.kind}\0${o.key}`));
  // What cannot be deleted (the default status page) is only no longer managed.
  const removable = (o: CurrentObject) => sectionOf(o.kind)?.removable?.(o.objectId) ?? true;
  const deletes = prune ? leftOver.filter(removable) : [];
  if (prune) staleLinks.push(...leftOver.filter((o) => !removable(o)).map((o) => o.link!));
  for (const o of deletes) {
    items.push({ kind: o.kind, key: o.key, name: o.name, action: "delete", objectId: o.objectId, drift: o.link!.appliedHash !== o.hash, adopt: false, changes: [] });
    staleLinks.push(o.link!);
  }
  staleLinks.push(...state.orphans);
  const count = (a: PlanItem["action"]) => items.filter((i) => i.action === a).length;
  return {
    plan: {
      items,
      counts: { create: count("create"), change: count("change"), delete: count("delete"), unchanged },
      notInFile: prune ? [] : leftOver.map((o) => ({ kind: o.kind, key: o.key, name: o.name })),
    },
    desired,
    deletes,
    staleLinks,
  };
}

export { readState };
