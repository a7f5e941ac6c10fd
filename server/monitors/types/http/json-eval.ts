// Evaluating a JSON assertion (json-path.ts parses it) against a parsed response body: own data properties only.
import { formatPath, type JsonAssertion, type JsonVerdict, type Segment } from "./json-path";

const isObject = (v: unknown): v is object => typeof v === "object" && v !== null && !Array.isArray(v);
const NOT_FOUND = Symbol("not found");

/** An own data property (never a getter, never the prototype chain). */
function own(v: object, key: string): unknown {
  const d = Object.getOwnPropertyDescriptor(v, key);
  return d && "value" in d ? d.value : NOT_FOUND;
}

function step(current: unknown, s: Segment): unknown {
  switch (s.kind) {
    case "key":
      return isObject(current) ? own(current, s.key) : NOT_FOUND;
    case "index": {
      if (!Array.isArray(current)) return NOT_FOUND;
      const i = s.index < 0 ? current.length + s.index : s.index;
      return i >= 0 && i < current.length ? own(current, String(i)) : NOT_FOUND;
    }
    case "length": {
      if (Array.isArray(current)) return current.length;
      if (typeof current === "string") {
        let n = 0;
        for (const _ of current) n++;
        return n;
      }
      if (!isObject(current)) return NOT_FOUND;
      const key = own(current, "length");
      return key !== NOT_FOUND ? key : Object.keys(current).length;
    }
  }
}

/** JSON equality: same type, same value; arrays element by element, objects by own keys in any order. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => {
      const vb = own(b, k);
      return vb !== NOT_FOUND && jsonEqual(own(a, k), vb);
    });
  }
  return false;
}

/** JSON of a value for messages, at most `max` characters (the last one "…"). */
function showJson(value: unknown, max = 100): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length <= max) return text;
  let cut = max - 1;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // do not split a surrogate pair
  return `${text.slice(0, cut)}…`;
}

/** Checks a parsed assertion against a parsed JSON body. Never throws. */
export function evaluateJsonAssertion(a: JsonAssertion, document: unknown): JsonVerdict {
  let current: unknown = document;
  if (current === undefined) return { ok: false, missing: true, path: "$" };
  for (let n = 0; n < a.segments.length; n++) {
    current = step(current, a.segments[n]);
    if (current === NOT_FOUND || current === undefined) return { ok: false, missing: true, path: formatPath(a.segments.slice(0, n + 1)) };
  }
  const v = a.value;
  let ok: boolean;
  switch (a.op) {
    case null:
      ok = current !== null && current !== false;
      break;
    case "==":
      ok = jsonEqual(current, v);
      break;
    case "!=":
      ok = !jsonEqual(current, v);
      break;
    case "contains":
      ok =
        typeof current === "string"
          ? typeof v === "string" && current.includes(v)
          : Array.isArray(current) && current.some((x) => jsonEqual(x, v));
      break;
    default: {
      if (typeof current !== "number" || typeof v !== "number") ok = false;
      else if (a.op === "<") ok = current < v;
      else if (a.op === "<=") ok = current <= v;
      else if (a.op === ">") ok = current > v;
      else ok = current >= v;
    }
  }
  return ok ? { ok: true } : { ok: false, missing: false, actual: showJson(current) };
}

/** The sentence for a failed assertion (`$.status is "down", expected == "ok"`); null when it passed. */
export function explainJsonVerdict(a: JsonAssertion, verdict: JsonVerdict): string | null {
  if (verdict.ok) return null;
  if (verdict.missing) return verdict.path === a.path ? `${a.path} is missing` : `${a.path} is missing (no ${verdict.path})`;
  const expected = a.op === null ? "expected a value other than null or false" : `expected ${a.op} ${showJson(a.value)}`;
  return `${a.path} is ${verdict.actual}, ${expected}`;
}
