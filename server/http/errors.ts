import { Elysia } from "elysia";
import type { Logger } from "../log";

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

export interface ErrorBody {
  success: false;
  code: string;
  message: string;
  [key: string]: unknown;
}

interface ValidationIssue {
  path?: string;
  message?: string;
  summary?: string;
  schema?: { error?: unknown };
}

/** A readable sentence for the first thing wrong with a request, preferring the schema's own message. */
function validationMessage(error: { customError?: unknown; all?: ValidationIssue[] }): string {
  if (typeof error.customError === "string") return error.customError;
  const first = error.all?.[0];
  if (!first) return "The request is not valid";
  if (typeof first.schema?.error === "string") return first.schema.error;
  const field = first.path?.replace(/^\//, "").replace(/\//g, ".");
  const what = first.message ?? first.summary ?? "is not valid";
  return field ? `Invalid ${field}: ${what}` : `Invalid request: ${what}`;
}

/** Maps every failure to `{ success: false, code, message }` with a fitting status. Never leaks internals. */
export function errorHandling(log: Logger) {
  return new Elysia({ name: "errors" }).error({ HttpError }).onError({ as: "global" }, ({ code, error: thrown, set, request }) => {
    let error: unknown = thrown;
    const reply = (status: number, body: ErrorBody) => {
      set.status = status;
      return body;
    };
    // Elysia wraps whatever a body parser throws (our size and type checks included) in its ParseError.
    const cause = code === "PARSE" ? (error as Error).cause : undefined;
    if (cause instanceof HttpError) error = cause;
    if (error instanceof HttpError) {
      return reply(error.status, { success: false, code: error.code, message: error.message, ...error.extra });
    }
    switch (code) {
      case "VALIDATION":
        return reply(400, { success: false, code: "VALIDATION", message: validationMessage(error as never) });
      case "PARSE":
        return reply(400, { success: false, code: "BAD_JSON", message: "The request body is not valid JSON" });
      case "NOT_FOUND":
        return reply(404, { success: false, code: "NOT_FOUND", message: "Not found" });
    }
    // Elysia's own status errors (e.g. from a plugin) keep their 4xx status.
    const status = typeof (error as { status?: unknown }).status === "number" ? (error as { status: number }).status : 500;
    if (status >= 400 && status < 500) {
      return reply(status, { success: false, code: "BAD_REQUEST", message: "The request was not accepted" });
    }
    log.error("unhandled error", { method: request.method, url: new URL(request.url).pathname, error: String((error as Error)?.stack ?? error) });
    return reply(500, { success: false, code: "INTERNAL", message: "Something went wrong on the server" });
  });
}
