// Helpers of the mail tests: a listener that accepts and never speaks (and tells when the client hung up), a check
// context, and the settings' 400 message for a bad field.
import { createServer, type Server, type Socket } from "node:net";
import type { TObject } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ALLOW_PRIVATE, defaultResolve, type TargetPolicy } from "../../../net/targets";
import type { SettingsCheckContext } from "../settings-type";

export const context = (timeoutMs = 5000, policy: TargetPolicy = ALLOW_PRIVATE): SettingsCheckContext => ({
  timeoutMs,
  signal: AbortSignal.timeout(timeoutMs),
  policy,
  resolve: defaultResolve,
  now: Date.now,
});

/** A server on 127.0.0.1 that accepts connections and never sends a byte; counts them and the ones the client closed. */
export async function silentServer(): Promise<{ port: number; accepted: () => number; closed: () => number; stop: () => void }> {
  let accepted = 0;
  let closed = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => {
      closed++;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    accepted: () => accepted,
    closed: () => closed,
    stop: () => {
      sockets.forEach((s) => s.destroy());
      server.close();
    },
  };
}

/** The message a user would get for these settings (the failing field's `error`), or null when they are valid. */
export function messageOf(schema: TObject, value: Record<string, unknown>): string | null {
  const full = Value.Default(schema, structuredClone(value));
  const first = Value.Errors(schema, full).First();
  if (!first) return null;
  const field = first.path.split("/")[1]!;
  return (schema.properties[field] as { error?: string }).error ?? first.message;
}

/** Polls until `ready()` is true (a server coming up), at most `ms`. */
export async function waitFor(ready: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await ready()) return true;
    await Bun.sleep(100);
  }
  return false;
}
