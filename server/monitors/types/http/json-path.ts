// JSON assertions for HTTP monitors: one small path language, checked against the parsed response body. Written by
// hand (a cursor over the text): no eval, no Function, no dependencies; the path only ever reads own data properties
// of the parsed body, so `$.constructor` or `$.__proto__` never reach a prototype.
//
// Grammar (whitespace is allowed between tokens; at most 500 characters):
//
//   expression := path [ op value ]
//   path       := "$" segment*
//   segment    := "." name | "[" integer "]" | "[" string "]"
//   name       := a letter or _ first, then letters, digits 0-9, _ and -   (other keys: $["weird key"], $["0"])
//   integer    := -?(0|[1-9][0-9]*)        an array index; negative counts from the end: [-1] is the last element
//   op         := == | != | < | <= | > | >= | contains
//   value      := string | number | true | false | null | array | object   (JSON syntax: "double quotes",
//                 JSON escapes, optional leading -, no leading zeros; arrays and objects only after == != contains)
//
// Meaning:
//   $                  the whole body; .name and ["key"] read an object's own key, [n] an array element.
//   .length (last)     the length of an array, the number of characters (code points) of a string, or the number of
//                      keys of an object, unless that object has its own "length" key: then the key wins.
//                      $["length"] is always the key.
//   (no op)            passes when the path exists and is not null or false (0, "" and [] pass).
//   == !=              JSON equality: deep for arrays and objects (key order ignored); no conversion between
//                      types, so 1 and "1" differ, as do true and 1.
//   < <= > >=          numbers only: a value in the body that is not a number (even "42") fails.
//   contains           a string contains a substring, or an array has an element equal (==) to the value.
//   missing path       fails for every op, != included ($.x != 1 fails when there is no x).
//
// Examples: $.status == "ok"   $.queue.length < 100   $.data[0].name != "x"   $.ready
//           $["weird key"].n >= 2.5   $.tags contains "prod"   $.items[-1].id == 7

export const MAX_EXPRESSION_LENGTH = 500;

export type JsonLiteral = string | number | boolean | null;
export type JsonValue = JsonLiteral | JsonValue[] | { [key: string]: JsonValue };
export type JsonOperator = "==" | "!=" | "<" | "<=" | ">" | ">=" | "contains";

export type Segment =
  /** .name or ["key"]: an own key of an object. */
  | { kind: "key"; key: string }
  /** [n]: an array element; negative counts from the end. */
  | { kind: "index"; index: number }
  /** .length as the last segment: see the grammar. */
  | { kind: "length" };

export interface JsonAssertion {
  /** The expression as written. */
  source: string;
  /** Canonical text of the path part ($.data[0].name, $["weird key"]). */
  path: string;
  op: JsonOperator | null;
  /** undefined exactly when op is null. */
  value: JsonValue | undefined;
  segments: Segment[];
}

export type JsonVerdict =
  | { ok: true }
  /** path: the path up to the first part that was not there ($.data[5] for $.data[5].name with 2 items). */
  | { ok: false; missing: true; path: string }
  /** actual: JSON of the value found, at most 100 characters. */
  | { ok: false; missing: false; actual: string };

/** A syntax error, worded for the monitor form. position: 1-based, of the offending character; null when none. */
export class JsonPathError extends Error {
  readonly position: number | null;
  constructor(message: string, position: number | null = null) {
    super(message);
    this.name = "JsonPathError";
    this.position = position;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

const NAME = /[\p{L}_][\p{L}0-9_-]*/uy;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const INTEGER = /-?[0-9]+/y;
const VALUE_HINT = 'a number, "text", true, false or null';
const OPERATORS = "==, !=, <, <=, >, >= or contains";
const WORD_OPERATORS: Record<string, JsonOperator> = {
  eq: "==", equals: "==", is: "==", ne: "!=", neq: "!=", not: "!=", lt: "<", le: "<=", lte: "<=", gt: ">",
  ge: ">=", gte: ">=", has: "contains", includes: "contains", include: "contains", in: "contains",
};
const WHOLE_NAME = new RegExp(`^${NAME.source}$`, "u");
const isNameText = (s: string) => WHOLE_NAME.test(s);

class Parser {
  i = 0;
  constructor(readonly src: string) {}

  get end() {
    return this.i >= this.src.length;
  }
  cur(): string {
    return this.src[this.i];
  }

  skipSpace() {
    while (this.i < this.src.length && " \t\r\n".includes(this.src[this.i])) this.i++;
  }

  match(re: RegExp, at = this.i): string | null {
    re.lastIndex = at;
    const m = re.exec(this.src);
    return m ? m[0] : null;
  }

  /** The token at `at` as a user sees it: a word, a run of operator characters, a number or one character. */
  token(at = this.i): string {
    if (at >= this.src.length) return "";
    const m = this.match(/[\p{L}0-9_.-]+|[=!<>&|]+/uy, at);
    return m ?? String.fromCodePoint(this.src.codePointAt(at)!);
  }

  /** `"x" at position 7`, or `the end of the expression`. */
  where(at = this.i): string {
    return at >= this.src.length ? "the end of the expression" : `${JSON.stringify(this.token(at))} at position ${at + 1}`;
  }

  fail(message: string, at: number | null = this.i): never {
    throw new JsonPathError(message, at === null ? null : Math.min(at, this.src.length) + 1);
  }

  unexpected(hint: string, at = this.i): never {
    if (at >= this.src.length) this.fail(`Unexpected end of the expression: ${hint}`, at);
    this.fail(`Unexpected ${this.where(at)}: ${hint}`, at);
  }

  // path := "$" segment*
  path(): Segment[] {
    this.skipSpace();
    if (this.end) this.fail('Expected a path starting with $ (for example $.status == "ok"), but the expression is empty', null);
    if (this.cur() !== "$") {
      const word = this.match(NAME);
      const hint = word ? `: did you mean $.${word}?` : this.cur() === "." || this.cur() === "[" ? `: did you mean $${this.token()}?` : "";
      this.fail(`Expected a path starting with $, found ${this.where()}${hint}`);
    }
    this.i++;
    const glued = this.match(NAME);
    if (glued !== null) this.unexpected(`did you mean $.${glued}?`);
    const segments: Segment[] = [];
    let lastDotLength = false;
    for (;;) {
      this.skipSpace();
      if (this.cur() === ".") {
        const dot = this.i++;
        this.skipSpace();
        if (this.cur() === ".") this.fail(`Unexpected ".." at position ${dot + 1}: recursive search (..) is not supported, write the full path`, dot);
        const name = this.match(NAME);
        if (name === null) {
          if (this.end) this.fail(`Expected a name after "." at position ${dot + 1}`, dot);
          if (this.cur() === "*") this.unexpected("wildcards are not supported, write one path");
          if (/[0-9-]/.test(this.cur())) {
            const t = this.token();
            this.unexpected(`a name cannot start with a digit or -: use [${t}] for an array element or ["${t}"] for a key`);
          }
          if (this.cur() === '"' || this.cur() === "'") {
            const key = this.src.slice(this.i + 1).split(this.cur())[0];
            this.unexpected(`quoted keys go in brackets: ${formatPath(segments)}["${key}"]`);
          }
          this.unexpected('expected a name after "." (letters, digits, _ and -), or use ["key"] for other keys');
        }
        this.i += name.length;
        segments.push({ kind: "key", key: name });
        lastDotLength = name === "length";
      } else if (this.cur() === "[") {
        const open = this.i++;
        this.skipSpace();
        segments.push(this.bracket(open));
        this.skipSpace();
        if (this.cur() !== "]") {
          if (this.cur() === ",") this.unexpected("one index or key per bracket");
          if (this.cur() === ":") this.unexpected("slices are not supported, use one index");
          this.fail(`Expected "]" to close the "[" at position ${open + 1}, found ${this.where()}`);
        }
        this.i++;
        lastDotLength = false;
      } else break;
    }
    if (lastDotLength) segments[segments.length - 1] = { kind: "length" };
    return segments;
  }

  // "[" integer "]" | "[" string "]", after the "[" and spaces.
  bracket(open: number): Segment {
    const c = this.cur();
    if (c === '"') return { kind: "key", key: this.string() };
    if (c === "'") this.unexpected(`keys use double quotes: ["${this.src.slice(this.i + 1).split("'")[0]}"]`);
    if (c === "-" || (c >= "0" && c <= "9")) {
      const text = this.match(INTEGER);
      if (text === null) this.unexpected("expected a whole number after -");
      const after = this.i + text.length;
      if (this.src[after] === "." || this.src[after] === "e" || this.src[after] === "E") this.unexpected("array indexes are whole numbers");
      if (/^-?0[0-9]/.test(text)) this.unexpected(`array indexes have no leading zeros: [${Number(text)}]`);
      if (text === "-0") this.unexpected("-0 is not an index: [0] is the first element, [-1] the last");
      const index = Number(text);
      if (!Number.isSafeInteger(index)) this.unexpected("the array index is too large");
      this.i = after;
      return { kind: "index", index };
    }
    if (this.end) this.fail(`Expected an index or a "key" after the "[" at position ${open + 1}`, open);
    if (c === "]") this.unexpected('empty brackets: write an index like [0] or a key like ["name"]');
    if (c === "*") this.unexpected("wildcards are not supported, write one index");
    if (c === "?" || c === "(") this.unexpected("filters are not supported, write one index");
    const word = this.match(NAME);
    if (word) this.unexpected(`keys in brackets go in double quotes: ["${word}"] (or write .${word})`);
    this.unexpected('expected an index like [0] or a "key" like ["name"] inside [ ]');
  }

  // A JSON string at the cursor; returns its text.
  string(): string {
    const start = this.i;
    let j = start + 1;
    for (;;) {
      if (j >= this.src.length) this.fail(`The text starting at position ${start + 1} is not closed: a " is missing`, start);
      const c = this.src[j];
      if (c === '"') break;
      if (c === "\\") {
        const e = this.src[j + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(this.src.slice(j + 2, j + 6))) this.fail(`Invalid escape at position ${j + 1}: \\u takes four hex digits (\\u00e9)`, j);
          j += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) j += 2;
        else if (e === undefined) j++;
        else this.fail(`Invalid escape "\\${e}" at position ${j + 1}: use \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX`, j);
      } else if (c < " ") this.fail(`Line break or control character at position ${j + 1} inside text: write it as an escape (\\n, \\t…)`, j);
      else j++;
    }
    this.i = j + 1;
    return JSON.parse(this.src.slice(start, j + 1)) as string; // a checked JSON string literal: data, not code
  }

  // op := == | != | < | <= | > | >= | contains
  operator(): JsonOperator {
    const at = this.i;
    const symbols = this.match(/[=!<>&|]+/y);
    if (symbols !== null) {
      const did = (op: string) => this.fail(`Unexpected ${JSON.stringify(symbols)} at position ${at + 1}: did you mean ${op}?`, at);
      const exact = ["==", "!=", "<=", ">=", "<", ">"].find((op) => symbols === op);
      if (exact) {
        this.i += symbols.length;
        return exact as JsonOperator;
      }
      if (symbols === "&&" || symbols === "||") this.unexpected("one comparison per assertion (add another assertion instead)");
      const suggestion: Record<string, string> = { "=": "==", "===": "==", "!": "!=", "!==": "!=", "<>": "!=", "=<": "<=", "=>": ">=", "=!": "!=" };
      if (suggestion[symbols]) did(suggestion[symbols]);
      for (const op of ["==", "!=", "<=", ">=", "<", ">"]) if (symbols.startsWith(op)) did(op);
      this.unexpected(`expected an operator: ${OPERATORS}`);
    }
    const word = this.match(NAME);
    if (word !== null) {
      if (word === "contains") {
        this.i += word.length;
        return "contains";
      }
      const lower = word.toLowerCase();
      if (lower === "contains") this.unexpected("did you mean contains? (lower case)");
      if (lower === "and" || lower === "or") this.unexpected("one comparison per assertion (add another assertion instead)");
      if (WORD_OPERATORS[lower]) this.unexpected(`did you mean ${WORD_OPERATORS[lower]}?`);
    }
    if (this.cur() === '"' || /[0-9-]/.test(this.cur()) || /^(true|false|null)$/.test(word ?? ""))
      this.unexpected(`expected an operator (${OPERATORS}) between the path and the value`);
    this.unexpected(`expected an operator (${OPERATORS}) or the end of the expression`);
  }

  // value := JSON. `after` names what the value follows, for messages.
  value(after: string, depth = 0): JsonValue {
    this.skipSpace();
    const c = this.cur();
    if (this.end) this.fail(`Expected a value ${after} (${VALUE_HINT})`);
    if (c === '"') return this.string();
    if (c === "'") {
      const body = this.src.slice(this.i + 1).split("'")[0];
      this.unexpected(`text values use double quotes: "${body}"`);
    }
    if (c === "-" || c === "+" || c === "." || (c >= "0" && c <= "9")) return this.number();
    if (c === "[" || c === "{") {
      if (depth >= 20) this.unexpected("the value is nested too deeply");
      return c === "[" ? this.array(depth) : this.object(depth);
    }
    const word = this.match(NAME);
    if (word !== null) {
      if (word === "true" || word === "false" || word === "null") {
        this.i += word.length;
        return word === "null" ? null : word === "true";
      }
      const lower = word.toLowerCase();
      if (lower === "true" || lower === "false" || lower === "null") this.unexpected(`did you mean ${lower}? (lower case)`);
      this.fail(`Expected a value ${after} (${VALUE_HINT}), found ${this.where()}: put text in double quotes, "${this.token()}"`);
    }
    this.fail(`Expected a value ${after} (${VALUE_HINT}), found ${this.where()}`);
  }

  number(): number {
    const c = this.cur();
    if (c === "+") this.unexpected("numbers are written without +");
    if (c === ".") this.unexpected(`numbers need a digit before the point: 0${this.token()}`);
    const text = this.match(NUMBER);
    if (text === null) this.unexpected("expected a digit after -");
    const next = this.src[this.i + text.length];
    if (/^-?0$/.test(text.replace(/[.eE].*/, "")) && next >= "0" && next <= "9") this.unexpected("numbers have no leading zeros");
    if (next === "." || next === "e" || next === "E") this.unexpected("not a valid number (numbers are written like 12, -3.5 or 1e6)");
    const n = Number(text);
    if (!Number.isFinite(n)) this.unexpected("the number is too large");
    this.i += text.length;
    return n;
  }

  array(depth: number): JsonValue[] {
    const open = this.i++;
    const items: JsonValue[] = [];
    this.skipSpace();
    if (this.cur() === "]") {
      this.i++;
      return items;
    }
    for (;;) {
      items.push(this.value(`in the array at position ${open + 1}`, depth + 1));
      this.skipSpace();
      if (this.cur() === "]") {
        this.i++;
        return items;
      }
      if (this.cur() !== ",") this.fail(`Expected "," or "]" in the array at position ${open + 1}, found ${this.where()}`);
      this.i++;
      this.skipSpace();
      if (this.cur() === "]") this.unexpected("no comma after the last element");
    }
  }

  object(depth: number): { [key: string]: JsonValue } {
    const open = this.i++;
    const out: { [key: string]: JsonValue } = {};
    this.skipSpace();
    if (this.cur() === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.cur() !== '"') this.fail(`Expected a "key" in double quotes in the object at position ${open + 1}, found ${this.where()}`);
      const key = this.string();
      this.skipSpace();
      if (this.cur() !== ":") this.fail(`Expected ":" after the key ${JSON.stringify(key)}, found ${this.where()}`);
      this.i++;
      // defineProperty: a "__proto__" key stays a plain key (as JSON.parse does), never sets a prototype.
      Object.defineProperty(out, key, { value: this.value(`for the key ${JSON.stringify(key)}`, depth + 1), enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      if (this.cur() === "}") {
        this.i++;
        return out;
      }
      if (this.cur() !== ",") this.fail(`Expected "," or "}" in the object at position ${open + 1}, found ${this.where()}`);
      this.i++;
      this.skipSpace();
      if (this.cur() === "}") this.unexpected("no comma after the last key");
    }
  }
}

/** Parses an assertion; throws a JsonPathError whose message can be shown as is. */
export function parseJsonAssertion(expression: string): JsonAssertion {
  if (typeof expression !== "string") throw new JsonPathError("The expression must be text");
  if (expression.length > MAX_EXPRESSION_LENGTH)
    throw new JsonPathError(`The expression is too long (${expression.length} characters; at most ${MAX_EXPRESSION_LENGTH})`);
  const p = new Parser(expression);
  const segments = p.path();
  const path = formatPath(segments);
  p.skipSpace();
  if (p.end) return { source: expression, path, op: null, value: undefined, segments };
  const opAt = p.i;
  const op = p.operator();
  const valueAt = (p.skipSpace(), p.i);
  const value = p.value(`after ${op}`);
  if (op !== "==" && op !== "!=" && op !== "contains" && typeof value !== "number") {
    const hint = typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? `: write ${value.trim()} without quotes` : "";
    p.fail(`Expected a number after ${op} (<, <=, > and >= compare numbers only), found ${p.src.slice(valueAt, p.i)} at position ${valueAt + 1}${hint}`, valueAt);
  }
  p.skipSpace();
  if (!p.end) {
    const t = p.token();
    if (t === "&&" || t === "||" || /^(and|or)$/i.test(t)) p.unexpected("one comparison per assertion (add another assertion instead)");
    if (/^[=!<>]/.test(t)) p.unexpected(`one operator per assertion (the ${op} at position ${opAt + 1} is already one)`);
    p.unexpected("the expression should end after the value");
  }
  return { source: expression, path, op, value, segments };
}

/** Canonical text of a path: .name where the key is a name, ["key"] otherwise. */
export function formatPath(segments: readonly Segment[]): string {
  let out = "$";
  segments.forEach((s, n) => {
    if (s.kind === "index") out += `[${s.index}]`;
    else if (s.kind === "length") out += ".length";
    // A last key called "length" keeps its brackets, or it would read as the length.
    else if (isNameText(s.key) && !(s.key === "length" && n === segments.length - 1)) out += `.${s.key}`;
    else out += `[${JSON.stringify(s.key)}]`;
  });
  return out;
}

/** Canonical text of the whole assertion: `$.status == "ok"`; parsing it again gives the same assertion. */
export function describeJsonAssertion(a: JsonAssertion): string {
  return a.op === null ? a.path : `${a.path} ${a.op} ${JSON.stringify(a.value)}`;
}
