// How vigil-agent fails: an expected failure (no permission, a refused token, an unreachable server …) is one line on
// stderr and a non-zero exit; anything else is one line plus the file holding the full error. Never a stack trace on
// the terminal: from the compiled (minified) binary it would print kilobytes of source.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Exit codes: a failure the user can fix, bad usage, a bug. */
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_UNEXPECTED = 70;

/** A failure with a message written for the user: printed as is, no stack. */
export class AgentError extends Error {
  constructor(message: string, readonly exitCode = EXIT_FAILED) {
    super(message);
  }
}

const errorCode = (e: unknown) => (e as { code?: unknown } | null)?.code;

/** File-system errors a user can fix, in words. */
const FS_REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  ENOTDIR: "a parent is not a directory",
  EISDIR: "it is a directory",
  ENOSPC: "no space left on the device",
  ENOENT: "no such file or directory",
};

/** "permission denied (mkdir /nonexistent)" for a Node file-system error, or null when it is not one we know. */
export function describeFsError(e: unknown): string | null {
  const code = errorCode(e);
  if (typeof code !== "string" || !(code in FS_REASONS)) return null;
  const { syscall, path } = e as { syscall?: string; path?: string };
  return syscall && path ? `${FS_REASONS[code]} (${syscall} ${path})` : FS_REASONS[code];
}

const TLS_CODES = /CERT|SELF_SIGNED|TLS|SSL|EPROTO|ALTNAME|ISSUER/i;

/** Why a request to `server` failed before any answer, as one line (connection refused, DNS, TLS, timeout). */
export function describeFetchError(e: unknown, server: string): string {
  const code = errorCode(e);
  const name = (e as { name?: string } | null)?.name;
  const message = (e as Error | null)?.message ?? String(e);
  if (name === "TimeoutError" || name === "AbortError") return `${server} did not answer within 30 s`;
  if (code === "ECONNREFUSED") return `cannot reach ${server}: connection refused (is Vigil running and the port right?)`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `cannot reach ${server}: its host name does not resolve`;
  if (typeof code === "string" && TLS_CODES.test(code)) {
    return `cannot reach ${server}: TLS error (${message}); use a certificate from a trusted CA, or point NODE_EXTRA_CA_CERTS at your CA's PEM file`;
  }
  return `cannot reach ${server}: ${firstLine(message)}`;
}

const firstLine = (text: string) => text.split("\n", 1)[0].slice(0, 300);

/**
 * Writes the full error (stack included) to a file under the temp dir and returns the one line to print. If even
 * that file cannot be written, the line says so rather than dumping the stack.
 */
export function reportUnexpected(e: unknown, dir = tmpdir()): string {
  const message = e instanceof Error ? e.message : String(e);
  const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
  const file = join(dir, `vigil-agent-error-${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}.log`);
  try {
    writeFileSync(file, `${new Date().toISOString()} vigil-agent ${process.argv.slice(2, 3).join(" ")}\n${detail}\n`, { mode: 0o600 });
    return `unexpected error: ${firstLine(message)} (details in ${file})`;
  } catch (writeError) {
    return `unexpected error: ${firstLine(message)} (details could not be saved: ${firstLine(String(writeError))})`;
  }
}

/** The line to print and the exit code for anything thrown. */
export function failureOf(e: unknown): { line: string; exitCode: number } {
  if (e instanceof AgentError) return { line: e.message, exitCode: e.exitCode };
  return { line: reportUnexpected(e), exitCode: EXIT_UNEXPECTED };
}

/** Prints one line and exits: for errors thrown by the commands and for uncaught errors and rejections. */
export function exitWith(e: unknown): never {
  const { line, exitCode } = failureOf(e);
  console.error(`vigil-agent: ${line}`);
  process.exit(exitCode);
}

/** Routes every uncaught error and unhandled rejection through exitWith (a timer callback, a stray promise …). */
export function installCrashHandlers(): void {
  process.on("uncaughtException", exitWith);
  process.on("unhandledRejection", exitWith);
}
