import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentError, describeFetchError, describeFsError, failureOf, reportUnexpected } from "./errors";

const server = "https://vigil.example.com";

test("network failures in words: timeout, unknown host, refused, TLS, anything else as its first line", () => {
  expect(describeFetchError(Object.assign(new Error("The operation timed out."), { name: "TimeoutError" }), server)).toBe(`${server} did not answer within 30 s`);
  expect(describeFetchError(Object.assign(new TypeError("getaddrinfo ENOTFOUND x"), { code: "ENOTFOUND" }), server)).toBe(`cannot reach ${server}: its host name does not resolve`);
  expect(describeFetchError(Object.assign(new TypeError("certificate has expired"), { code: "CERT_HAS_EXPIRED" }), server)).toContain("TLS error (certificate has expired)");
  expect(describeFetchError(new Error("first\nsecond"), server)).toBe(`cannot reach ${server}: first`);
});

test("file-system errors a user can fix name the reason and the call; others are not guessed at", () => {
  expect(describeFsError(Object.assign(new Error("x"), { code: "EACCES", syscall: "mkdir", path: "/nonexistent" }))).toBe("permission denied (mkdir /nonexistent)");
  expect(describeFsError(Object.assign(new Error("x"), { code: "EROFS" }))).toBe("read-only file system");
  expect(describeFsError(new Error("boom"))).toBeNull();
});

test("an expected failure is its own message; an unexpected one is one line naming the file with the stack", () => {
  expect(failureOf(new AgentError("registration refused"))).toEqual({ line: "registration refused", exitCode: 1 });
  const dir = mkdtempSync(join(tmpdir(), "vigil-agent-errors-"));
  try {
    const line = reportUnexpected(new RangeError("kept\nsecond line"), dir);
    const [file] = readdirSync(dir);
    expect(line).toBe(`unexpected error: kept (details in ${join(dir, file)})`);
    expect(readFileSync(join(dir, file), "utf8")).toContain("RangeError: kept\nsecond line\n    at ");
    // Nowhere to write: still one line, never the stack.
    expect(reportUnexpected(new Error("lost"), join(dir, "missing"))).toMatch(/^unexpected error: lost \(details could not be saved: [^\n]+\)$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
