// Listening alone on the configured address. Elysia asks Bun for SO_REUSEPORT unless told otherwise: a second Vigil
// started on the same port was then accepted too, and the kernel split connections — sign-ups included — between two
// databases. Without it a port in use is an error, said in one line before the data dir is touched.

/** What Vigil listens with beside its address. */
export const LISTEN_ALONE = { reusePort: false } as const;

/** The one line a start that cannot listen ends with. */
export function listenFailure(host: string, port: number, error: unknown): string {
  if ((error as NodeJS.ErrnoException)?.code === "EADDRINUSE") {
    return `vigil: port ${port} on ${host} is already in use (another Vigil or another program); stop it or pick another --port`;
  }
  return `vigil: cannot listen on port ${port} on ${host}: ${(error as Error)?.message ?? error}`;
}

/**
 * Why Vigil could not listen on host:port now (the line to print), or null when it could. Tried before the database
 * is opened, so a server started by mistake migrates and writes nothing; the real listen may still fail if another
 * program takes the port meanwhile. Port 0 (any free port) always can.
 */
export function listenProblem(host: string, port: number): string | null {
  if (port === 0) return null;
  try {
    Bun.serve({ hostname: host, port, ...LISTEN_ALONE, fetch: () => new Response(null, { status: 503 }) }).stop(true);
    return null;
  } catch (e) {
    return listenFailure(host, port, e);
  }
}
