// What each later section of the file (channels, statusPages, maintenance) gives the generic plan / apply / export /
// state code: its entry schema, how the database's objects read back in file form, how an entry resolves by the
// API's own rules, and how one is written or deleted inside the apply's transaction.
import type { TObject } from "@sinclair/typebox";
import type { Orm } from "../../db/database";
import type { Tables } from "../../db/pg-schema";
import type { TargetPolicy } from "../../net/targets";
import type { Form } from "../model";
import type { PasswordBook } from "./passwords";

/** A refused entry, with the field (below the entry) it is about. */
export class EntryProblem extends Error {
  constructor(
    readonly field: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

/** How a secret kept only as a hash reads back (followed by the hash): never shown, exported as a reference. */
export const HASHED = "\u0000hashed:";

export type SectionKind = "channel" | "status_page" | "maintenance";

/** An object as stored, in file form. */
export interface SectionRow {
  objectId: string;
  name: string;
  form: Form;
  /** What an unmanaged object's key is made from when not its name (a status page's slug). */
  naturalKey?: string;
  /** What the file does not hold and a write keeps (a page's agents, announcement). */
  kept?: unknown;
}

/** References by key, as the database holds them. */
export interface ReadRefs {
  monitorKey(id: number): string;
}

export interface ResolveContext {
  policy: TargetPolicy;
  /** Keys of the file's monitors and groups. */
  monitorKeys: Set<string>;
  /** The object this entry would change (what it keeps that the file does not say). */
  current?: SectionRow;
  now: number;
}

/** Ids the writes need: the apply's monitors by key. */
export interface WriteRefs {
  monitorId(key: string): number;
  passwords: PasswordBook;
}

export interface SectionDef {
  /** The file's section name. */
  section: "channels" | "statusPages" | "maintenance";
  kind: SectionKind;
  entry: TObject;
  /** The entry field holding its key: `key`, or a status page's `slug`. */
  keyField: "key" | "slug";
  read(orm: Orm, t: Tables, refs: ReadRefs): Promise<SectionRow[]>;
  /** The entry's file form by the API's rules; throws the API's HttpError for a refused entry. */
  resolve(entry: Form, ctx: ResolveContext): Form | Promise<Form>;
  /** Field paths ("config.password", "password") holding secrets. */
  secrets(form: Form): Map<string, true | "url">;
  /**
   * The current form made comparable with the desired one (a page's password hash checked against the file's), and
   * what a write will need prepared in `book` (run before the transaction too).
   */
  reconcile?(current: Form | undefined, desired: Form, book: PasswordBook): Promise<Form | undefined>;
  /** An unmanaged object export leaves out (as every new instance has it). */
  pristine?(row: SectionRow): boolean;
  /** The entry as export writes it (defaults left out). */
  shorten(entry: Form, ctx: ResolveContext): Form | Promise<Form>;
  /** Creates (no objectId) or updates the object; returns its id. */
  write(tx: Orm, t: Tables, form: Form, current: SectionRow | undefined, refs: WriteRefs, now: number): Promise<string>;
  remove(tx: Orm, t: Tables, objectId: string): Promise<void>;
  /** Whether prune may delete it (false: it only stops being managed). */
  removable?(objectId: string): boolean;
}

/**
 * The entry with each field left out whose absence resolves to the same form (defaults), nested objects (`config`,
 * `schedule`) field by field. Fields in `keep` always stay.
 */
export async function shortenBy(entry: Form, resolve: (e: Form) => Promise<string | null> | string | null, keep: string[]): Promise<Form> {
  const target = await resolve(entry);
  let out = { ...entry };
  for (const field of Object.keys(entry)) {
    if (keep.includes(field)) continue;
    const value = out[field];
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const s of Object.keys(value as Form)) {
        const { [s]: _, ...rest } = out[field] as Form;
        if ((await resolve({ ...out, [field]: rest })) === target) out = { ...out, [field]: rest };
      }
      if (Object.keys(out[field] as Form).length > 0) continue;
    }
    const { [field]: _, ...rest } = out;
    if ((await resolve(rest)) === target) out = rest;
  }
  return out;
}
