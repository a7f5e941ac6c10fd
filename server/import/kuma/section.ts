// The shape every part of the Kuma import shares (server/import/kuma/). The import reads a Kuma source (a kuma.db
// of Kuma 1.23.x or 2.x, or Kuma 1.x's JSON backup), makes a plan (what will be created, updated, and what cannot
// come across and why), then applies it in ONE database transaction. Each kind of object (monitors, tags,
// notification channels, status pages, maintenance windows, settings, history) is one section module implementing
// KumaSection; the sections run in the order listed in sections.ts, so a later one can find what an earlier one
// made (a status page finds its monitors through ImportLinks).
import type { Db, Orm } from "../../db/database";
import type { TargetPolicy } from "../../net/targets";

/** Which Kuma made the source, told apart by its schema (never guessed from content). */
export type KumaSchema = "1.23" | "2.x" | "1.x-json";

/** A Kuma source, read once: its tables as plain rows (JSON backups are mapped onto the same table names). */
export interface KumaSource {
  schema: KumaSchema;
  /** Human description for the CLI: "Uptime Kuma 2.x database (/srv/kuma/kuma.db)". */
  label: string;
  /** The file's name ("kuma.db"), for a description in the reader's language (with schema and version). */
  file: string;
  /** The Kuma version a JSON backup names ("1.23.16"); databases do not record one. */
  version?: string;
  /** The rows of one Kuma table (empty when the table does not exist in this schema). */
  rows(table: string): Record<string, unknown>[];
  /** Whether the table / column exists in this schema. */
  has(table: string, column?: string): boolean;
}

/** What the plan says of one Kuma object. */
export interface PlanItem {
  /** "monitor", "tag", "notification", "status-page", "maintenance", "setting", "history". */
  kind: string;
  /** Kuma's id (or key, for settings). */
  sourceId: string;
  /** What a person recognises: the monitor's name, the page's slug… */
  name: string;
  /** When `name` is a word of Vigil's rather than Kuma's ("Time zone"): its code (notes.ts NAMES) for the UI. */
  nameCode?: string;
  /** create: new in Vigil; update: imported before, changed in place; skip: cannot come across (see reason). */
  action: "create" | "update" | "skip";
  /** Why it is skipped, or what of it does not come across (a setting with no equivalent). */
  notes: Note[];
}

/** One note of the plan: a stable code and its values (the UI words it: import.notes.<code>), and the English text. */
export interface Note {
  /** A key of NOTES in notes.ts, e.g. "monitor.noCheck". */
  code: string;
  values: Record<string, string | number>;
  /** The sentence in English (the CLI prints it; API clients may show it). */
  text: string;
}

/** Kuma id → Vigil id of what was imported (before or in this run), kept in import_links. */
export interface ImportLinks {
  target(kind: string, sourceId: string | number): number | undefined;
  /** Records (in the transaction) that sourceId of kind is Vigil's targetId. */
  link(kind: string, sourceId: string | number, targetId: number): void;
}

export interface ApplyContext {
  db: Db;
  /** The open transaction: every write of the import goes through it. */
  tx: Orm;
  links: ImportLinks;
  now: number;
  options: ImportOptions;
}

export interface ImportOptions {
  /** Also bring the heartbeats into the check history and rollups. */
  history: boolean;
  /** Which addresses monitors may target (the instance's --block-private-targets); private ones when absent. */
  targets?: TargetPolicy;
  /** The instance's raw check retention (--raw-retention-days; 7 when absent): older history goes to rollups only. */
  rawRetentionDays?: number;
}

export interface KumaSection {
  readonly kind: string;
  /** The section's items of the plan (reads only: the source, and the database to tell create from update). */
  plan(source: KumaSource, ctx: { db: Db; links: ImportLinks; options: ImportOptions }): Promise<PlanItem[]>;
  /** Writes the items the plan said would be created or updated, inside ctx.tx; throws to roll everything back. */
  apply(source: KumaSource, items: PlanItem[], ctx: ApplyContext): Promise<void>;
}

/** What planImport and applyImport answer (the CLI prints it, the admin screen shows it). */
export interface ImportPlan {
  source: { schema: KumaSchema; label: string; file: string; version?: string };
  items: PlanItem[];
}
