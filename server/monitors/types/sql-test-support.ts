// Test support for the SQL types' tests (postgres, mysql): a silent server, the check context, schema messages.
import { createServer, type Socket } from "node:net";
import { existsSync, mkdtempSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TObject } from "@sinclair/typebox";
import { FormatRegistry } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ALLOW_PRIVATE, defaultResolve, type Resolve, type TargetPolicy } from "../../net/targets";
import type { SettingsCheckContext } from "./settings-type";

/** A TCP server that accepts and never answers; it counts connections and sees when each is closed. */
export async function silentServer() {
  const sockets: Socket[] = [];
  let closed = 0;
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on("close", () => closed++);
    socket.on("error", () => {});
    socket.resume(); // read (and drop) what the client sends, so its closing is seen
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    accepted: () => sockets.length,
    closed: () => closed,
    stop: () => {
      sockets.forEach((s) => s.destroy());
      server.close();
    },
  };
}

export function checkContext(timeoutMs: number, over: { policy?: TargetPolicy; resolve?: Resolve; signal?: AbortSignal } = {}): SettingsCheckContext {
  return { timeoutMs, signal: over.signal ?? AbortSignal.timeout(timeoutMs), policy: over.policy ?? ALLOW_PRIVATE, resolve: over.resolve ?? defaultResolve, now: Date.now };
}

// The "textarea" format only tells the form how to show a field; Vigil's validator accepts it (as this does).
if (!FormatRegistry.Has("textarea")) FormatRegistry.Set("textarea", () => true);

/** The message a user sees for settings the schema refuses (the failing field's `error`), or null when valid. */
export function schemaMessage(schema: TObject, settings: unknown): string | null {
  const first = Value.Errors(schema, Value.Default(schema, structuredClone(settings))).First();
  if (!first) return null;
  return (first.schema as { error?: string }).error ?? first.message;
}

/** A temp dir for a throwaway server: in memory where there is room (its fsyncs are what make a start slow). */
export function serverDir(prefix: string): string {
  const shm = "/dev/shm";
  const roomy = existsSync(shm) && (() => {
    const s = statfsSync(shm);
    return s.bavail * s.bsize > 512 * 1024 * 1024;
  })();
  return mkdtempSync(join(roomy ? shm : tmpdir(), prefix));
}
