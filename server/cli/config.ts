// `vigil config export | plan | apply`: configuration as code from a terminal or CI. Two ways to reach Vigil: with
// --url and --token (VIGIL_URL, VIGIL_TOKEN) it calls the running server's API, which then re-reads what changed (its
// caches and every node of a cluster see it: the recommended way); without them it works on the database directly,
// like `vigil import` (refused while a server uses the SQLite data dir; on PostgreSQL restart Vigil afterwards).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { openDatabase } from "../db/open";
import type { Db } from "../db/database";
import { HttpError } from "../http/http-error";
import type { TargetPolicy } from "../net/targets";
import { applyConfig } from "../config-file/apply";
import { exportConfig } from "../config-file/export";
import { problemText, type FileProblem } from "../config-file/document";
import { planConfig, type ConfigPlan } from "../config-file/plan";
import { databaseFile, serverUsing } from "./data-dir";

export interface ConfigCommand {
  action: "export" | "plan" | "apply";
  /** The file to plan or apply; where export writes (undefined: stdout). */
  file?: string;
  prune: boolean;
  yes: boolean;
  withSecrets: boolean;
  /** The running server (--url/--token); absent: the database itself. */
  url?: string;
  token?: string;
  dataDir: string;
  databaseUrl?: string;
  targets: TargetPolicy;
  env: Record<string, string | undefined>;
  ask?: (question: string) => Promise<string>;
  print?: (line: string) => void;
}

const shown = (v: unknown) => (v === null || v === undefined ? "(none)" : JSON.stringify(v));

/** The plan as the terminal shows it: each object with its changed fields, then the counts. */
export function formatConfigPlan(plan: ConfigPlan): string[] {
  const lines: string[] = [];
  const sign = { create: "+", change: "~", delete: "-" } as const;
  for (const item of plan.items) {
    const notes = [item.adopt && "now managed", item.drift && "drift: changed since the last apply"].filter(Boolean).join("; ");
    lines.push(`${sign[item.action]} ${item.kind} ${item.key} (${item.name})${notes ? `  [${notes}]` : ""}`);
    if (item.action === "delete") continue;
    for (const c of item.changes) lines.push(`    ${c.path}: ${c.secret ? "(secret changed)" : item.action === "create" ? shown(c.new) : `${shown(c.old)} → ${shown(c.new)}`}`);
  }
  const { create, change, delete: del, unchanged } = plan.counts;
  if (lines.length) lines.push("");
  lines.push(`Plan: ${create} to create, ${change} to change, ${del} to delete, ${unchanged} unchanged.`);
  if (plan.notInFile.length) lines.push(`${plan.notInFile.length} managed object(s) no longer in the file, kept (--prune deletes them): ${plan.notInFile.map((o) => `${o.kind} ${o.key}`).join(", ")}`);
  return lines;
}

const changes = (plan: ConfigPlan) => plan.items.length > 0;

/** The API's reply, or its refusal as an error carrying the server's message (and problems). */
async function call(cmd: ConfigCommand, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(new URL(path, cmd.url!.replace(/\/?$/, "/")), {
    method,
    headers: { authorization: `Bearer ${cmd.token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.ok) return res;
  const reply = (await res.json().catch(() => ({}))) as { message?: string; code?: string; problems?: FileProblem[] };
  throw new HttpError(res.status, reply.code ?? "HTTP_ERROR", reply.message ?? `${res.status} ${res.statusText}`, reply.problems ? { problems: reply.problems } : {});
}

/** Runs the command; returns the exit code (plan: 2 when there are changes, 0 when none; 1 refused or invalid). */
export async function configCommand(cmd: ConfigCommand): Promise<number> {
  const print = cmd.print ?? ((line: string) => console.log(line));
  const viaApi = cmd.url !== undefined;
  if (viaApi && !cmd.token) {
    console.error("vigil config: --url needs --token (or VIGIL_TOKEN): an admin's API token (scope write)");
    return 1;
  }
  if (!viaApi && cmd.databaseUrl === undefined && cmd.action === "apply") {
    const pid = serverUsing(cmd.dataDir);
    if (pid !== null) {
      console.error(`vigil config: a Vigil server (process ${pid}) is using ${cmd.dataDir}: apply through it with --url and --token, or stop it first.`);
      return 1;
    }
  }
  let db: Db | undefined;
  try {
    if (!viaApi) {
      if (cmd.databaseUrl === undefined) mkdirSync(cmd.dataDir, { recursive: true });
      db = await openDatabase(cmd.databaseUrl ?? databaseFile(cmd.dataDir), { max: 2 });
    }
    if (cmd.action === "export") {
      const yaml = viaApi
        ? await (await call(cmd, "GET", `api/config/export${cmd.withSecrets ? "?withSecrets=true" : ""}`)).text()
        : (await exportConfig(db!.orm, db!.t, { withSecrets: cmd.withSecrets, policy: cmd.targets })).yaml;
      if (cmd.file) writeFileSync(cmd.file, yaml, { mode: cmd.withSecrets ? 0o600 : 0o644 });
      else process.stdout.write(yaml);
      return 0;
    }
    const text = readFileSync(cmd.file!, "utf8");
    // Only the variables the file names go to the server (never the whole environment).
    const names = [...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);
    const env = Object.fromEntries(names.filter((n) => cmd.env[n] !== undefined).map((n) => [n, cmd.env[n]!]));
    const body = { yaml: text, prune: cmd.prune, env };
    const plan: ConfigPlan = viaApi
      ? ((await (await call(cmd, "POST", "api/config/plan", body)).json()) as { plan: ConfigPlan }).plan
      : (await planConfig(db!.orm, db!.t, text, { prune: cmd.prune, env, policy: cmd.targets })).plan;
    for (const line of formatConfigPlan(plan)) print(line);
    if (cmd.action === "plan") return changes(plan) ? 2 : 0;
    if (!changes(plan)) return 0;
    if (!cmd.yes) {
      if (!cmd.ask) {
        print("Nothing applied: run again with --yes to apply this plan.");
        return 1;
      }
      const answer = (await cmd.ask("Apply? [y/N] ")).trim().toLowerCase();
      if (answer !== "y" && answer !== "yes") {
        print("Nothing applied.");
        return 1;
      }
    }
    const applied = viaApi
      ? ((await (await call(cmd, "POST", "api/config/apply", body)).json()) as { plan: ConfigPlan }).plan
      : (await applyConfig(db!, text, { prune: cmd.prune, env, policy: cmd.targets })).plan;
    const { create, change, delete: del } = applied.counts;
    print(`Applied: ${create} created, ${change} changed, ${del} deleted.`);
    if (!viaApi && cmd.databaseUrl !== undefined) print("Restart Vigil (every node) so it reads the applied configuration, or apply through it with --url next time.");
    return 0;
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    const problems = (e.extra.problems as FileProblem[] | undefined) ?? [];
    console.error(`vigil config: ${problems.length ? `${cmd.file} is invalid:` : e.message}`);
    for (const p of problems) console.error(`  ${cmd.file}: ${problemText(p)}`);
    return 1;
  } finally {
    await db?.close();
  }
}
