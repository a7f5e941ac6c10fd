// The expected-status rule of a monitor: one code (200), a class (2xx) or a range (200-299), several separated by
// commas. No imports: the server's schema and checker and the UI's form validation all use this one definition.

const ITEM = /^([1-5][0-9][0-9])(?:\s*-\s*([1-5][0-9][0-9]))?$|^([1-5])xx$/i;

type Range = [low: number, high: number];

/** The ranges an expected-status text stands for, or null when it is not valid (a range must go low to high). */
export function parseExpectedStatus(text: string): Range[] | null {
  if (text.length > 200) return null;
  const ranges: Range[] = [];
  for (const raw of text.split(",")) {
    const m = ITEM.exec(raw.trim());
    if (!m) return null;
    if (m[3]) ranges.push([Number(m[3]) * 100, Number(m[3]) * 100 + 99]);
    else {
      const low = Number(m[1]);
      const high = m[2] ? Number(m[2]) : low;
      if (high < low) return null;
      ranges.push([low, high]);
    }
  }
  return ranges;
}

export const isValidExpectedStatus = (text: string) => parseExpectedStatus(text) !== null;

/** Stored form: lower case, no spaces, duplicates dropped ("200, 2XX,200 - 204" → "200,2xx,200-204"). */
export function normaliseExpectedStatus(text: string): string {
  return [...new Set(text.split(",").map((s) => s.replace(/\s+/g, "").toLowerCase()))].join(",");
}

const matchers = new Map<string, (status: number) => boolean>();

/** Whether an HTTP status satisfies the rule (an invalid rule matches nothing). Compiled rules are cached. */
export function statusMatches(expected: string, status: number): boolean {
  let match = matchers.get(expected);
  if (!match) {
    const ranges = parseExpectedStatus(expected) ?? [];
    // Runs on every check: the usual single range ("2xx") is two comparisons, no closure per range.
    if (ranges.length === 1) {
      const [low, high] = ranges[0]!;
      match = (s) => s >= low && s <= high;
    } else {
      match = (s) => {
        for (const [low, high] of ranges) if (s >= low && s <= high) return true;
        return false;
      };
    }
    if (matchers.size > 1000) matchers.clear();
    matchers.set(expected, match);
  }
  return match(status);
}
