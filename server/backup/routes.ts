// GET /api/backup: an admin downloads a consistent copy of the SQLite database from the UI — the same copy as
// `vigil backup` (server/cli/backup.ts), for installs run from source (`npm start`) where no `vigil` executable exists.
import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Elysia } from "elysia";
import type { sessions } from "../auth/session";
import type { Db } from "../db/database";
import { conflict } from "../http/errors";
import { contentResponse, doc } from "../http/openapi";
import type { Logger } from "../log";

const CHUNK = 256 * 1024;

/** `vigil-20260105-101500.db`: when the copy was taken (UTC), so downloads sort and never clash. */
export function backupFileName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `vigil-${stamp}.db`;
}

/** An open copy: streamed, then closed. */
interface Snapshot {
  fd: number;
  open: boolean;
}

// A download nobody reads to the end nor cancels (a request dropped before its body was pulled) still gets its copy's
// descriptor closed once the stream is collected; the unlinked copy's disk space goes with it.
const unread = new FinalizationRegistry<Snapshot>((copy) => close(copy));

function close(copy: Snapshot) {
  if (!copy.open) return;
  copy.open = false;
  closeSync(copy.fd);
}

/**
 * Writes the copy with VACUUM INTO (one read transaction: a snapshot while the server keeps writing; compacted) into
 * a private directory beside the database (the data dir; the temp dir for an in-memory one), opens it, and removes
 * it at once: the open descriptor streams it, and nothing is left behind if the download stops half-way.
 */
function snapshot(sqlite: NonNullable<Db["sqlite"]>, location: string): { copy: Snapshot; bytes: number } {
  const workDir = mkdtempSync(join(location === ":memory:" ? tmpdir() : dirname(location), ".backup-"));
  try {
    const file = join(workDir, "vigil.db");
    sqlite.query("VACUUM INTO ?").run(file);
    const fd = openSync(file, "r");
    return { copy: { fd, open: true }, bytes: fstatSync(fd).size };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The copy as a body, read in chunks (a local file just written: reads come from the page cache). */
function stream(copy: Snapshot): ReadableStream<Uint8Array> {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = new Uint8Array(CHUNK);
      const read = readSync(copy.fd, chunk, 0, CHUNK, null);
      if (read > 0) return controller.enqueue(chunk.subarray(0, read));
      close(copy);
      controller.close();
    },
    cancel: () => close(copy),
  });
  unread.register(body, copy);
  return body;
}

const DOC = doc("A consistent copy of the SQLite database (what `vigil backup` writes); refused on PostgreSQL (use pg_dump)", 401, 403, 409);

export function backupRoutes({ db, session, log }: { db: Db; session: ReturnType<typeof sessions>; log: Logger }) {
  return new Elysia({ prefix: "/api/backup", detail: { tags: ["instance"] } })
    .use(session)
    .get(
      "",
      ({ user, via }) => {
        if (!db.sqlite) {
          throw conflict("BACKUP_POSTGRES", "This Vigil keeps its data in PostgreSQL: back it up with pg_dump (and restore with pg_restore)");
        }
        const { copy, bytes } = snapshot(db.sqlite, db.location);
        const name = backupFileName();
        log.info("backup taken for download", { by: user.id, username: user.username, via, file: name, bytes });
        return new Response(stream(copy), {
          headers: {
            "content-type": "application/octet-stream",
            "content-length": String(bytes),
            "content-disposition": `attachment; filename="${name}"`,
            "cache-control": "no-store",
          },
        });
      },
      {
        // It holds every password hash and channel secret: admins only, and API tokens need the `full` scope.
        auth: "accounts",
        detail: {
          ...DOC,
          responses: { ...DOC.responses, 200: contentResponse("The database file (vigil-YYYYMMDD-HHMMSS.db)", "application/octet-stream") },
        },
      },
    );
}
