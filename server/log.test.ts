import { expect, test } from "bun:test";
import { createLogger, repeatMerging } from "./log";

test("repeats of one error: the first at once, then one count per window while they go on, and at the end", async () => {
  const lines: string[] = [];
  const merged = repeatMerging(createLogger("info", (l) => lines.push(l.slice(25))), "warn", 40);
  for (let i = 0; i < 4; i++) merged.report("the database is unreachable", { error: "Failed to connect" });
  expect(lines).toEqual(["WARN  the database is unreachable error=Failed to connect"]);
  await Bun.sleep(80);
  expect(lines.at(-1)).toBe("WARN  the database is unreachable (repeated 3 more times) error=Failed to connect");
  merged.report("the database is unreachable", { error: "Failed to connect" });
  merged.report("something else", { error: "x" }); // a different error ends the run: its count first
  merged.end("works again");
  expect(lines.slice(2)).toEqual([
    "WARN  the database is unreachable (repeated 1 more time) error=Failed to connect",
    "WARN  something else error=x",
    "INFO  works again",
  ]);
});
