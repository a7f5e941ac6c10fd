// Tests that must see what operators run: the executable when it is built (npm test builds it first), else the
// source, as a real process on a free port with its own data dir. Minification, production mode and embedding
// change behaviour that `app.handle` in a test cannot show.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const BINARY = join(ROOT, "dist/vigil");

export interface ShippedServer {
  /** `http://127.0.0.1:PORT` */
  base: string;
  pid: number;
  /** Everything it printed so far. */
  log(): string;
  /** Ends it (SIGTERM) and removes its data dir (unless the caller gave it). */
  stop(): Promise<void>;
  /** Kills it (SIGKILL: nothing written, no lease released) and removes its data dir (unless the caller gave it). */
  kill(): Promise<void>;
}

export interface ShippedOptions {
  /** A data dir the caller keeps (e.g. across a restart); by default a temporary one, removed by stop(). */
  dataDir?: string;
  /** More command-line options (`--node-name n1`…). */
  args?: string[];
  /** More environment (`VIGIL_DATABASE_URL`…). */
  env?: Record<string, string>;
}

/** How to start the server operators run: the executable when built, else the source. */
export const shippedCommand = () => (existsSync(BINARY) ? [BINARY] : [process.execPath, join(ROOT, "server/main.ts")]);

export async function startShippedServer(options: ShippedOptions = {}): Promise<ShippedServer> {
  const dir = mkdtempSync(join(tmpdir(), "vigil-shipped-"));
  const dataDir = options.dataDir ?? join(dir, "data");
  const server = Bun.spawn([...shippedCommand(), "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, ...(options.args ?? [])], {
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, NODE_ENV: "", VIGIL_LOG_LEVEL: "info", VIGIL_AGENTS_DIR: dir, ...options.env },
  });
  let log = "";
  const reader = server.stdout.getReader();
  const decoder = new TextDecoder();
  while (!/listening on (\S+)/.test(log)) {
    const { value, done } = await reader.read();
    if (done) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`server exited: ${log}`);
    }
    log += decoder.decode(value);
  }
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      log += decoder.decode(value);
    }
  })();
  return {
    base: /listening on (\S+)/.exec(log)![1]!,
    pid: server.pid,
    log: () => log,
    async stop() {
      server.kill("SIGTERM");
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
    async kill() {
      server.kill("SIGKILL");
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
