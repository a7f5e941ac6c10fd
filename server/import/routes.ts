// The admin screen's side of `vigil import kuma`: POST /api/import/kuma/plan and /apply take the same file the command
// takes (a Kuma data directory's kuma.db, or a Kuma 1.x JSON backup) as multipart `file`, with `history` ("true" to
// bring the heartbeats too). Both are stateless — the browser sends the file again to apply — so a plan made on one
// node of a cluster can be applied through another, and nothing uploaded is kept: the file goes to a private temp
// directory for the read and is removed before the reply.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import type { Db } from "../db/database";
import { badRequest } from "../http/errors";
import { doc } from "../http/openapi";
import type { Logger } from "../log";
import { applyImport, planImport, readKumaSource, type KumaSource } from "./kuma";
import type { ImportOptions } from "./kuma/section";

export interface ImportRoutesDeps {
  db: Db;
  session: ReturnType<typeof sessions>;
  log: Logger;
  /** The instance's address policy and raw retention, which the import respects as the server does. */
  options: Omit<ImportOptions, "history">;
  /** After an import is committed: the running services re-read what it wrote (monitors, channels, pages, windows). */
  onImported: () => Promise<void>;
}

const body = t.Object({
  file: t.File({ error: "Choose the Kuma database (kuma.db) or a Kuma JSON backup" }),
  history: t.Optional(t.BooleanString({ error: "history must be true or false" })),
});

/** Runs `fn` on the uploaded file read as a Kuma source; the file (a private temp directory) is removed afterwards. */
async function withUpload<T>(file: File, fn: (source: KumaSource) => Promise<T>): Promise<T> {
  if (file.size === 0) throw badRequest("NOT_KUMA", "The file is empty: choose the Kuma database (kuma.db) or a Kuma JSON backup");
  const dir = mkdtempSync(join(tmpdir(), "vigil-import-"));
  try {
    // Keep the extension: a JSON backup is told from a database by its content, the name only helps messages.
    const name = /\.json$/i.test(file.name) ? "backup.json" : "kuma.db";
    const path = join(dir, name);
    await Bun.write(path, file);
    const read = await readKumaSource(path);
    // The plan names the file as the admin chose it, not where the server put it.
    const source = { ...read, label: read.label.replaceAll(path, file.name || name), file: file.name || name };
    try {
      return await fn(source);
    } finally {
      read.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function importRoutes({ db, session, log, options: instance, onImported }: ImportRoutesDeps) {
  const options = (history: boolean | undefined): ImportOptions => ({ ...instance, history: history === true });
  return new Elysia({ prefix: "/api/import/kuma", detail: { tags: ["instance"] } })
    .use(session)
    .post(
      "/plan",
      async ({ body: { file, history } }) =>
        withUpload(file, async (source) => ({ success: true as const, data: await planImport(db, source, options(history)) })),
      {
        // It reads and would write every monitor, channel secret and page: admins only.
        auth: "accounts",
        body,
        detail: doc("What importing this Uptime Kuma database or JSON backup would create, update, and leave out (and why); changes nothing", 400, 401, 403),
      },
    )
    .post(
      "/apply",
      async ({ body: { file, history }, user }) => {
        const plan = await withUpload(file, (source) => applyImport(db, source, options(history)));
        await onImported();
        const count = (action: string) => plan.items.filter((i) => i.action === action).length;
        log.info("imported from Uptime Kuma", { by: user.id, username: user.username, source: plan.source.label, created: count("create"), updated: count("update"), skipped: count("skip") });
        return { success: true as const, data: plan };
      },
      {
        auth: "accounts",
        body,
        detail: doc("Imports the Uptime Kuma database or JSON backup in one transaction (again: updates what it imported before)", 400, 401, 403),
      },
    );
}
