// `vigil import kuma <path>`: prints the plan (what will be created, updated, and what cannot come across and why),
// asks before applying it (--yes for scripts), then applies it in one transaction. Works on the database directly,
// like the other subcommands: on SQLite it refuses while a server uses the data dir (that server would keep checking
// only the monitors it had read); on PostgreSQL it cannot tell, and says to restart Vigil.
import { mkdirSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { openDatabase } from "../db/open";
import { HttpError } from "../http/http-error";
import type { TargetPolicy } from "../net/targets";
import { applyImport, planImport, readKumaSource, type ImportPlan, type PlanItem } from "../import/kuma";
import { databaseFile, serverUsing } from "./data-dir";

export interface ImportCommand {
  path: string;
  /** The SQLite data dir, unless databaseUrl names PostgreSQL. */
  dataDir: string;
  databaseUrl?: string;
  yes: boolean;
  history: boolean;
  /** The server's --raw-retention-days (history older than that goes into rollups only). */
  rawRetentionDays?: number;
  targets: TargetPolicy;
  /** Asks the question on a terminal; undefined when there is none (then only --yes applies). */
  ask?: (question: string) => Promise<string>;
  print?: (line: string) => void;
}

const ACTIONS: { action: PlanItem["action"]; title: string }[] = [
  { action: "create", title: "Will create" },
  { action: "update", title: "Will update (imported before)" },
  { action: "skip", title: "Cannot import" },
];

/** The plan as the terminal shows it: grouped by what will happen, each item's notes under it. */
export function formatPlan(plan: ImportPlan): string[] {
  const lines = [`From ${plan.source.label}`];
  const width = Math.max(8, ...plan.items.map((i) => i.kind.length));
  for (const { action, title } of ACTIONS) {
    const items = plan.items.filter((i) => i.action === action);
    if (items.length === 0) continue;
    lines.push("", `${title} (${items.length}):`);
    for (const item of items) {
      lines.push(`  ${item.kind.padEnd(width)}  ${item.name || item.sourceId}`);
      for (const note of item.notes) lines.push(`  ${" ".repeat(width)}    - ${note.text}`);
    }
  }
  if (plan.items.length === 0) lines.push("", "Nothing to import.");
  return lines;
}

/** A question on the terminal, or undefined when stdin is not one. */
export function terminalQuestion(): ((question: string) => Promise<string>) | undefined {
  if (!process.stdin.isTTY) return undefined;
  return async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  };
}

/** Returns the exit code: 0 applied (or only planned without a terminal), 1 refused or declined. */
export async function importKuma(cmd: ImportCommand): Promise<number> {
  const print = cmd.print ?? ((line: string) => console.log(line));
  if (cmd.databaseUrl === undefined) {
    const pid = serverUsing(cmd.dataDir);
    if (pid !== null) {
      console.error(`vigil import: a Vigil server (process ${pid}) is using ${cmd.dataDir}: stop it, import, then start it again (a running server would not check the imported monitors).`);
      return 1;
    }
  }
  let source;
  try {
    source = await readKumaSource(cmd.path);
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    console.error(`vigil import: ${e.message} [${e.code}]`);
    return 1;
  }
  // Importing is a way to start: a data dir that does not exist yet is made, as the server makes it on first start.
  if (cmd.databaseUrl === undefined) mkdirSync(cmd.dataDir, { recursive: true });
  const db = await openDatabase(cmd.databaseUrl ?? databaseFile(cmd.dataDir), { max: 2 });
  try {
    const options = { history: cmd.history, targets: cmd.targets, rawRetentionDays: cmd.rawRetentionDays };
    const plan = await planImport(db, source, options);
    for (const line of formatPlan(plan)) print(line);
    if (!plan.items.some((i) => i.action !== "skip")) return 0;
    print("");
    if (!cmd.yes) {
      if (!cmd.ask) {
        print("Nothing imported yet: run again with --yes to apply this plan.");
        return 0;
      }
      const answer = (await cmd.ask("Apply? [y/N] ")).trim().toLowerCase();
      if (answer !== "y" && answer !== "yes") {
        print("Nothing imported.");
        return 1;
      }
    }
    const applied = await applyImport(db, source, options);
    const count = (action: PlanItem["action"]) => applied.items.filter((i) => i.action === action).length;
    print(`Imported: ${count("create")} created, ${count("update")} updated, ${count("skip")} not importable.`);
    if (cmd.databaseUrl !== undefined) print("Restart Vigil (every node) so it starts checking the imported monitors.");
    return 0;
  } finally {
    source.close();
    await db.close();
  }
}
