import { Elysia } from "elysia";
import { unavailableCause } from "../db/errors";
import { repeatMerging, type Logger } from "../log";
import { HttpError } from "./http-error";

// HttpError and its short-hands live in http-error.ts (no imports, so the agent can use the check modules).
export { HttpError, badRequest, conflict, forbidden, notFound, unauthorized } from "./http-error";

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
  schema?: JsonSchemaLike;
  value?: unknown;
}

interface JsonSchemaLike {
  error?: unknown;
  type?: string | string[];
  format?: string;
  anyOf?: JsonSchemaLike[];
}

const jsonType = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;

/** Whether the value is of a type the schema allows (its range or length may still be wrong). */
function typeFits(schema: JsonSchemaLike | undefined, value: unknown): boolean {
  if (!schema) return true;
  if (schema.anyOf) return schema.anyOf.some((s) => typeFits(s, value));
  if (schema.type === undefined) return true;
  // Elysia lets a number field take numeric text ({ type: "string", format: "integer" }): "five" does not fit it.
  if (schema.type === "string" && (schema.format === "integer" || schema.format === "numeric")) {
    return typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim());
  }
  const actual = jsonType(value);
  const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
  return allowed.includes(actual) || (actual === "integer" && allowed.includes("number"));
}

// Fields whose values are never repeated back (they may end up in a proxy's or a client's logs).
const SECRET_FIELD = /pass|secret|token|key|credential|webhook|url/i;

/**
 * What the client sent for a refused field, briefly: `the text "5"`, `the number 1.5`, `true`, `a list`. A client
 * that sends `"5"` where a number is expected learns why at once, instead of reading the rule and seeing no fault.
 */
export function describeSent(issue: ValidationIssue): string {
  if (!("value" in issue) || SECRET_FIELD.test(issue.path ?? "")) return "";
  const value = issue.value;
  if (value === null) return " (got null)";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return ` (got the text ${JSON.stringify(shown)}${value.length > 40 ? `, ${value.length} characters` : ""})`;
  }
  if (typeof value === "number") return ` (got the number ${value})`;
  if (typeof value === "boolean") return ` (got ${value})`;
  if (Array.isArray(value)) return ` (got a list of ${value.length})`;
  return " (got an object)";
}

/** A readable sentence for the first thing wrong with a request, preferring the schema's own message. */
function validationMessage(error: { type?: string; customError?: unknown; all?: ValidationIssue[] }): string {
  const first = error.all?.[0];
  // Says what was sent only when its type is wrong ("5" for a number), the trap a rule alone does not explain; and
  // only for a JSON body: path and query values are always text.
  const sent = first && error.type === "body" && first.value !== undefined && !typeFits(first.schema, first.value) ? describeSent(first) : "";
  if (typeof error.customError === "string") return error.customError + sent;
  if (!first) return "The request is not valid";
  if (typeof first.schema?.error === "string") return first.schema.error + sent;
  const field = first.path?.replace(/^\//, "").replace(/\//g, ".");
  const what = first.message ?? first.summary ?? "is not valid";
  return (field ? `Invalid ${field}: ${what}` : `Invalid request: ${what}`) + sent;
}

/** PostgreSQL refused a value's characters (22P05: \u0000 in JSON; 22021: a NUL byte in text). */
function isUnstorableText(e: unknown): boolean {
  for (let err = e as { code?: string; errno?: string; message?: string; cause?: unknown } | undefined, depth = 0; err && depth < 5; err = err.cause as typeof err, depth++) {
    if (err.code === "22P05" || err.code === "22021" || err.errno === "22P05" || err.errno === "22021") return true;
    if (/unsupported Unicode escape sequence|invalid byte sequence for encoding/.test(String(err.message ?? ""))) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again while the database is unreachable. */
export const DATABASE_RETRY_AFTER_S = 5;

/** Maps every failure to `{ success: false, code, message }` with a fitting status. Never leaks internals. */
export function errorHandling(log: Logger) {
  // An outage fails every request alike: one line, then a count, rather than a line per request.
  const outage = repeatMerging(log, "warn");
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
    // Text PostgreSQL cannot store (NUL, in text or JSON): the client's fault, whatever route let it through.
    if (isUnstorableText(error)) {
      return reply(400, { success: false, code: "BAD_TEXT", message: "Text must not contain the NUL character (\\u0000)" });
    }
    // The database is down or restarting: the client may try again shortly (not "Vigil is broken").
    const unavailable = unavailableCause(error);
    if (unavailable) {
      // The connection's error ("Failed to connect"), not the query it broke; closed or refused, one outage.
      const msg = "the database is unreachable; answering 503";
      outage.report(msg, { error: `${unavailable.message} (${String(unavailable.code ?? "")})` }, msg);
      set.headers["retry-after"] = String(DATABASE_RETRY_AFTER_S);
      return reply(503, { success: false, code: "DATABASE_UNAVAILABLE", message: "The database is unreachable; try again in a few seconds" });
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
