// The error a route throws for the client to see, and its short-hands. No imports: the check modules use these to
// refuse fields, and the agent (agent/probes.ts) runs the same modules without bundling the web framework.

/**
 * An error the client caused or may see: its status, a stable code the UI translates, and an English message.
 * Everything else thrown is a bug: logged, and answered with a generic 500.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string) => new HttpError(400, code, message);
export const unauthorized = (message = "Please sign in") => new HttpError(401, "UNAUTHORIZED", message);
export const forbidden = (message = "You are not allowed to do this") => new HttpError(403, "FORBIDDEN", message);
export const notFound = (code: string, message: string) => new HttpError(404, code, message);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);
