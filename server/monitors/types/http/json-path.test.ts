import { describe, expect, test } from "bun:test";
import { evaluateJsonAssertion, explainJsonVerdict } from "./json-eval";
import { describeJsonAssertion, JsonPathError, parseJsonAssertion, type JsonVerdict } from "./json-path";

const DOC = {
  status: "ok",
  ready: true,
  off: false,
  nothing: null,
  zero: 0,
  empty: "",
  none: [],
  queue: [1, 2, 3],
  count: 42,
  price: 2.5,
  numeric: "42",
  name: "héllo 👋",
  tags: ["prod", "eu", 1, { a: 1 }],
  data: [{ name: "first", id: 1 }, { name: "second", id: 2 }, { name: "last", id: 3 }],
  "weird key": { n: 2.5 },
  "0": "zero key",
  box: { length: 7, width: 3 },
  obj: { a: 1, b: 2, c: 3 },
  nested: { list: [1, { x: [true, null] }], flag: "y" },
};

const check = (expression: string, document: unknown = DOC): JsonVerdict =>
  evaluateJsonAssertion(parseJsonAssertion(expression), document);
const ok = (expression: string, document: unknown = DOC) => check(expression, document).ok;

/** The message a parse error shows (fails the test when the expression parses). */
function errorOf(expression: string): string {
  try {
    parseJsonAssertion(expression);
  } catch (e) {
    expect(e).toBeInstanceOf(JsonPathError);
    expect(e).toBeInstanceOf(Error);
    return (e as Error).message;
  }
  throw new Error(`parsed without an error: ${expression}`);
}

describe("parsing", () => {
  test("the examples", () => {
    expect(parseJsonAssertion('$.status == "ok"')).toEqual({
      source: '$.status == "ok"',
      path: "$.status",
      op: "==",
      value: "ok",
      segments: [{ kind: "key", key: "status" }],
    });
    expect(parseJsonAssertion("$.queue.length < 100")).toMatchObject({ path: "$.queue.length", op: "<", value: 100, segments: [{ kind: "key", key: "queue" }, { kind: "length" }] });
    expect(parseJsonAssertion('$.data[0].name != "x"')).toMatchObject({ path: "$.data[0].name", op: "!=", value: "x" });
    expect(parseJsonAssertion("$.ready")).toMatchObject({ path: "$.ready", op: null, value: undefined });
    expect(parseJsonAssertion('$["weird key"].n >= 2.5')).toMatchObject({ path: '$["weird key"].n', op: ">=", value: 2.5 });
    expect(parseJsonAssertion('$.tags contains "prod"')).toMatchObject({ path: "$.tags", op: "contains", value: "prod" });
  });

  test("whitespace between tokens, and canonical text", () => {
    const a = parseJsonAssertion('  $ . data [ -1 ] [ "na me" ] .id   <=-2.5e1  ');
    expect(a.source).toBe('  $ . data [ -1 ] [ "na me" ] .id   <=-2.5e1  ');
    expect(a.path).toBe('$.data[-1]["na me"].id');
    expect(describeJsonAssertion(a)).toBe('$.data[-1]["na me"].id <= -25');
    expect(parseJsonAssertion("$.a==1").op).toBe("==");
    expect(parseJsonAssertion('$.tags contains"x"').op).toBe("contains");
  });

  test("bracket keys that are names print with a dot; others stay in brackets", () => {
    expect(parseJsonAssertion('$["status"]').path).toBe("$.status");
    expect(parseJsonAssertion('$["0"]').path).toBe('$["0"]');
    expect(parseJsonAssertion('$["a.b"]["x\\"y"]').path).toBe('$["a.b"]["x\\"y"]');
    expect(parseJsonAssertion('$["length"]').path).toBe('$["length"]');
    expect(parseJsonAssertion('$["length"]').segments).toEqual([{ kind: "key", key: "length" }]);
    expect(parseJsonAssertion("$.length.x").segments).toEqual([{ kind: "key", key: "length" }, { kind: "key", key: "x" }]);
    expect(parseJsonAssertion("$.snake_case-name2").path).toBe("$.snake_case-name2");
    expect(parseJsonAssertion("$.état").path).toBe("$.état");
  });

  test("canonical text parses back to the same assertion", () => {
    for (const e of ['$["length"]', "$.x.length >= 1", '$[" "][-2] contains {"a":[1,"\\u00e9"]}', "$ == null", '$.a != "\\n"']) {
      const a = parseJsonAssertion(e);
      const again = parseJsonAssertion(describeJsonAssertion(a));
      expect({ ...again, source: "" }).toEqual({ ...a, source: "" });
    }
  });

  test("values: JSON strings, numbers, literals, arrays and objects", () => {
    const value = (e: string) => parseJsonAssertion(e).value;
    expect(value('$.a == "tab\\there \\u00e9 \\"q\\" \\\\ \\/"')).toBe('tab\there é "q" \\ /');
    expect(value("$.a == -0.5")).toBe(-0.5);
    expect(value("$.a == 1E3")).toBe(1000);
    expect(value("$.a == 0")).toBe(0);
    expect(value("$.a == true")).toBe(true);
    expect(value("$.a == false")).toBe(false);
    expect(value("$.a == null")).toBe(null);
    expect(value('$.a == [1, "two", [null], {}]')).toEqual([1, "two", [null], {}]);
    expect(value('$.a == { "k" : { "z": [ ] } }')).toEqual({ k: { z: [] } });
  });
});

describe("operators", () => {
  test.each([
    ['$.status == "ok"', true],
    ['$.status == "down"', false],
    ['$.status != "down"', true],
    ['$.status != "ok"', false],
    ["$.count < 43", true],
    ["$.count < 42", false],
    ["$.count <= 42", true],
    ["$.count <= 41.9", false],
    ["$.count > 41", true],
    ["$.count > 42", false],
    ["$.count >= 42", true],
    ["$.count >= 42.01", false],
    ["$.price >= 2.5", true],
    ["$.price > -1e3", true],
    ['$.tags contains "prod"', true],
    ['$.tags contains "staging"', false],
    ['$.status contains "o"', true],
    ['$.status contains "x"', false],
    ["$.ready == true", true],
    ["$.ready == false", false],
    ["$.nothing == null", true],
    ["$.nothing != null", false],
  ])("%s → %p", (expression, expected) => {
    expect(ok(expression)).toBe(expected);
  });

  test("no operator: present and not null/false", () => {
    expect(check("$.ready")).toEqual({ ok: true });
    expect(check("$.status")).toEqual({ ok: true });
    expect(check("$.zero")).toEqual({ ok: true });
    expect(check("$.empty")).toEqual({ ok: true });
    expect(check("$.none")).toEqual({ ok: true });
    expect(check("$")).toEqual({ ok: true });
    expect(check("$.off")).toEqual({ ok: false, missing: false, actual: "false" });
    expect(check("$.nothing")).toEqual({ ok: false, missing: false, actual: "null" });
    expect(check("$.absent")).toEqual({ ok: false, missing: true, path: "$.absent" });
  });

  test("== is strict about types: 1 and \"1\" differ, true and 1 differ", () => {
    expect(ok('$.numeric == "42"')).toBe(true);
    expect(ok("$.numeric == 42")).toBe(false);
    expect(ok('$.count == "42"')).toBe(false);
    expect(ok("$.count != \"42\"")).toBe(true);
    expect(ok("$.ready == 1")).toBe(false);
    expect(ok("$.zero == false")).toBe(false);
    expect(ok('$.empty == null')).toBe(false);
    expect(ok("$.zero == -0")).toBe(true);
    expect(ok("$.count == 42.0")).toBe(true);
  });

  test("deep equality for arrays and objects, key order ignored", () => {
    expect(ok("$.queue == [1, 2, 3]")).toBe(true);
    expect(ok("$.queue == [1, 3, 2]")).toBe(false);
    expect(ok("$.queue == [1, 2]")).toBe(false);
    expect(ok('$.queue == ["1", "2", "3"]')).toBe(false);
    expect(ok('$.data[0] == {"id": 1, "name": "first"}')).toBe(true);
    expect(ok('$.data[0] == {"id": 1}')).toBe(false);
    expect(ok('$.data[0] == {"id": 1, "name": "first", "x": null}')).toBe(false);
    expect(ok('$.nested == {"flag": "y", "list": [1, {"x": [true, null]}]}')).toBe(true);
    expect(ok('$.nested != {"flag": "y", "list": [1, {"x": [true, false]}]}')).toBe(true);
    expect(ok("$.obj == [1, 2, 3]")).toBe(false);
    expect(ok("$.none == {}")).toBe(false);
    expect(ok("$.none == []")).toBe(true);
  });

  test("< <= > >= compare numbers only", () => {
    expect(check("$.numeric > 1")).toEqual({ ok: false, missing: false, actual: '"42"' });
    expect(check("$.status < 1")).toEqual({ ok: false, missing: false, actual: '"ok"' });
    expect(check("$.ready >= 0")).toEqual({ ok: false, missing: false, actual: "true" });
    expect(check("$.nothing <= 0")).toEqual({ ok: false, missing: false, actual: "null" });
    expect(check("$.queue < 10")).toEqual({ ok: false, missing: false, actual: "[1,2,3]" });
    expect(errorOf('$.count < "50"')).toBe('Expected a number after < (<, <=, > and >= compare numbers only), found "50" at position 11: write 50 without quotes');
    expect(errorOf('$.name >= "a"')).toBe('Expected a number after >= (<, <=, > and >= compare numbers only), found "a" at position 11');
    expect(errorOf("$.a > [1]")).toContain("compare numbers only");
  });

  test("contains: substrings of strings, equal elements of arrays", () => {
    expect(ok('$.name contains "llo 👋"')).toBe(true);
    expect(ok('$.name contains ""')).toBe(true);
    expect(ok('$.name contains "HÉLLO"')).toBe(false);
    expect(ok("$.tags contains 1")).toBe(true);
    expect(ok('$.tags contains "1"')).toBe(false);
    expect(ok('$.tags contains {"a": 1}')).toBe(true);
    expect(ok('$.tags contains {"a": 2}')).toBe(false);
    expect(ok('$.tags contains "pro"')).toBe(false); // elements, not substrings of elements
    expect(ok('$.data contains {"name": "second", "id": 2}')).toBe(true);
    expect(check("$.numeric contains 4")).toEqual({ ok: false, missing: false, actual: '"42"' });
    expect(check('$.obj contains "a"')).toEqual({ ok: false, missing: false, actual: '{"a":1,"b":2,"c":3}' });
    expect(check('$.count contains "4"')).toEqual({ ok: false, missing: false, actual: "42" });
    expect(ok('$.none contains "x"')).toBe(false);
  });
});

describe("paths", () => {
  test("array indexes, negative from the end", () => {
    expect(ok('$.data[0].name == "first"')).toBe(true);
    expect(ok('$.data[2].name == "last"')).toBe(true);
    expect(ok('$.data[-1].name == "last"')).toBe(true);
    expect(ok('$.data[-3].name == "first"')).toBe(true);
    expect(check("$.data[3]")).toEqual({ ok: false, missing: true, path: "$.data[3]" });
    expect(check("$.data[-4].name")).toEqual({ ok: false, missing: true, path: "$.data[-4]" });
    expect(check("$.none[0]")).toEqual({ ok: false, missing: true, path: "$.none[0]" });
    expect(ok("$.nested.list[1].x[-1] == null")).toBe(true);
    expect(ok("$[1] == 20", [10, 20])).toBe(true);
    expect(ok("$[-1] == 20", [10, 20])).toBe(true);
  });

  test("indexes only index arrays, keys only read objects", () => {
    expect(check("$.status[0]")).toEqual({ ok: false, missing: true, path: "$.status[0]" });
    expect(check("$.obj[0]")).toEqual({ ok: false, missing: true, path: "$.obj[0]" });
    expect(check('$.queue["0"]')).toEqual({ ok: false, missing: true, path: '$.queue["0"]' });
    expect(check("$.count.x")).toEqual({ ok: false, missing: true, path: "$.count.x" });
    expect(ok('$["0"] == "zero key"')).toBe(true);
    expect(check("$[0]")).toEqual({ ok: false, missing: true, path: "$[0]" });
  });

  test("bracket string keys", () => {
    expect(ok('$["weird key"].n >= 2.5')).toBe(true);
    expect(ok('$["weird key"]["n"] == 2.5')).toBe(true);
    expect(ok('$["a.b"] == 1', { "a.b": 1, a: { b: 2 } })).toBe(true);
    expect(ok('$.a.b == 2', { "a.b": 1, a: { b: 2 } })).toBe(true);
    expect(ok('$[""] == "e"', { "": "e" })).toBe(true);
    expect(ok('$["\\u00e9"] == 1', { é: 1 })).toBe(true);
  });

  test(".length of arrays, strings (characters) and objects (key count)", () => {
    expect(ok("$.queue.length == 3")).toBe(true);
    expect(ok("$.queue.length < 100")).toBe(true);
    expect(ok("$.none.length == 0")).toBe(true);
    expect(ok("$.status.length == 2")).toBe(true);
    expect(ok("$.name.length == 7")).toBe(true); // "héllo 👋": code points, the emoji counts once
    expect(ok("$.empty.length == 0")).toBe(true);
    expect(ok("$.obj.length == 3")).toBe(true);
    expect(ok("$.length == 1", { a: 1 })).toBe(true);
    expect(ok("$.length == 2", [1, 2])).toBe(true);
    expect(check("$.count.length")).toEqual({ ok: false, missing: true, path: "$.count.length" });
    expect(check("$.nothing.length")).toEqual({ ok: false, missing: true, path: "$.nothing.length" });
    expect(check("$.absent.length")).toEqual({ ok: false, missing: true, path: "$.absent" });
  });

  test("an object's own length key wins over the key count", () => {
    expect(ok("$.box.length == 7")).toBe(true);
    expect(ok('$.o.length == "long"', { o: { length: "long", a: 1 } })).toBe(true);
    expect(check("$.o.length", { o: { length: null } })).toEqual({ ok: false, missing: false, actual: "null" });
    expect(ok('$.box["length"] == 7')).toBe(true);
    expect(check('$.obj["length"]')).toEqual({ ok: false, missing: true, path: '$.obj["length"]' });
    expect(check('$.queue["length"]')).toEqual({ ok: false, missing: true, path: '$.queue["length"]' });
    // in the middle of a path, length is a key
    expect(ok("$.box.length.x == 1", { box: { length: { x: 1 } } })).toBe(true);
    expect(check("$.queue.length.x")).toEqual({ ok: false, missing: true, path: '$.queue["length"]' }); // the key, which arrays lack
  });

  test("a missing path fails every operator, != included", () => {
    for (const op of ['== "x"', '!= "x"', "!= null", "< 1", "<= 1", "> 1", ">= 1", 'contains "x"', ""]) {
      expect(check(`$.absent.deeper ${op}`)).toEqual({ ok: false, missing: true, path: "$.absent" });
    }
    expect(check('$.data[1].nope != "x"')).toEqual({ ok: false, missing: true, path: "$.data[1].nope" });
  });

  test("documents that are not objects", () => {
    expect(ok('$ == "plain"', "plain")).toBe(true);
    expect(ok("$ > 3", 4)).toBe(true);
    expect(ok("$ == null", null)).toBe(true);
    expect(check("$.a", null)).toEqual({ ok: false, missing: true, path: "$.a" });
    expect(check("$.a", "text")).toEqual({ ok: false, missing: true, path: "$.a" });
    expect(evaluateJsonAssertion(parseJsonAssertion("$"), undefined)).toEqual({ ok: false, missing: true, path: "$" });
  });
});

describe("only own data: no prototypes, no code", () => {
  test("prototype names are missing", () => {
    for (const [expression, missing] of [
      ["$.constructor", "$.constructor"],
      ["$.__proto__", "$.__proto__"],
      ["$.toString", "$.toString"],
      ["$.hasOwnProperty", "$.hasOwnProperty"],
      ["$.valueOf", "$.valueOf"],
      ["$.__proto__.polluted", "$.__proto__"],
      ['$["constructor"]["prototype"]', "$.constructor"],
      ['$["__proto__"]', "$.__proto__"],
    ]) {
      expect(check(expression, {})).toEqual({ ok: false, missing: true, path: missing });
    }
    expect(check("$.queue.constructor")).toEqual({ ok: false, missing: true, path: "$.queue.constructor" });
    expect(check("$.queue.map")).toEqual({ ok: false, missing: true, path: "$.queue.map" });
    expect(check("$.status.constructor")).toEqual({ ok: false, missing: true, path: "$.status.constructor" });
    expect(check('$.status["length"]')).toEqual({ ok: false, missing: true, path: '$.status["length"]' });
    expect(check('$.status contains "function"')).toEqual({ ok: false, missing: false, actual: '"ok"' });
    expect(check("$.constructor == null", Object.create({ constructor: null }))).toEqual({ ok: false, missing: true, path: "$.constructor" });
  });

  test("__proto__ in a JSON body is an ordinary own key", () => {
    const doc = JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}');
    expect(ok("$.__proto__.x == 1", doc)).toBe(true);
    expect(ok('$.__proto__ == {"x": 1}', doc)).toBe(true);
    expect(ok('$.constructor == "c"', doc)).toBe(true);
    expect(ok('$ == {"__proto__": {"x": 1}, "constructor": "c"}', doc)).toBe(true);
    expect(ok('$ == {"__proto__": {"x": 1}}', {})).toBe(false);
    const value = parseJsonAssertion('$ == {"__proto__": {"polluted": true}}').value as object;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("getters are not called", () => {
    let called = false;
    const doc = Object.defineProperty({}, "x", { enumerable: true, get: () => ((called = true), 1) });
    expect(check("$.x", doc)).toEqual({ ok: false, missing: true, path: "$.x" });
    expect(called).toBe(false);
  });

  test("code is a syntax error, never run", () => {
    const g = globalThis as Record<string, unknown>;
    for (const e of [
      '$.a == (globalThis.jsonPathRan = 1)',
      "$.a; globalThis.jsonPathRan = 1",
      "$.a == `x`",
      '$.a == "x" + (globalThis.jsonPathRan = 1)',
      "$[globalThis.jsonPathRan = 1]",
      '$.a == process.exit(1)',
      "$.a == this",
      '$.a == require("fs")',
      "$.a == () => 1",
    ]) {
      expect(() => parseJsonAssertion(e)).toThrow(JsonPathError);
    }
    expect(g.jsonPathRan).toBeUndefined();
  });
});

describe("syntax errors say what and where", () => {
  test.each([
    ["", 'Expected a path starting with $ (for example $.status == "ok"), but the expression is empty'],
    ["   ", 'Expected a path starting with $ (for example $.status == "ok"), but the expression is empty'],
    ['status == "ok"', 'Expected a path starting with $, found "status" at position 1: did you mean $.status?'],
    [".status", 'Expected a path starting with $, found ".status" at position 1: did you mean $.status?'],
    ["@.a", 'Expected a path starting with $, found "@" at position 1'],
    ["$status", 'Unexpected "status" at position 2: did you mean $.status?'],
    ['$.status= "ok"', 'Unexpected "=" at position 9: did you mean ==?'],
    ['$.status = "ok"', 'Unexpected "=" at position 10: did you mean ==?'],
    ['$.status === "ok"', 'Unexpected "===" at position 10: did you mean ==?'],
    ['$.status !== "ok"', 'Unexpected "!==" at position 10: did you mean !=?'],
    ["$.a ! 1", 'Unexpected "!" at position 5: did you mean !=?'],
    ["$.a <> 1", 'Unexpected "<>" at position 5: did you mean !=?'],
    ["$.a => 1", 'Unexpected "=>" at position 5: did you mean >=?'],
    ["$.a =< 1", 'Unexpected "=<" at position 5: did you mean <=?'],
    ["$.a eq 1", 'Unexpected "eq" at position 5: did you mean ==?'],
    ['$.a includes "x"', 'Unexpected "includes" at position 5: did you mean contains?'],
    ['$.a CONTAINS "x"', 'Unexpected "CONTAINS" at position 5: did you mean contains? (lower case)'],
    ['$.a "x"', 'Unexpected "\\"" at position 5: expected an operator (==, !=, <, <=, >, >= or contains) between the path and the value'],
    ["$.a b", 'Unexpected "b" at position 5: expected an operator (==, !=, <, <=, >, >= or contains) or the end of the expression'],
    ["$.a ==", 'Expected a value after == (a number, "text", true, false or null)'],
    ["$.a contains   ", 'Expected a value after contains (a number, "text", true, false or null)'],
    ["$.a == ok", 'Expected a value after == (a number, "text", true, false or null), found "ok" at position 8: put text in double quotes, "ok"'],
    ["$.a == 'ok'", 'Unexpected "\'" at position 8: text values use double quotes: "ok"'],
    ["$.a == True", 'Unexpected "True" at position 8: did you mean true? (lower case)'],
    ["$.a == NULL", 'Unexpected "NULL" at position 8: did you mean null? (lower case)'],
    ["$.a == 01", 'Unexpected "01" at position 8: numbers have no leading zeros'],
    ["$.a == .5", 'Unexpected ".5" at position 8: numbers need a digit before the point: 0.5'],
    ["$.a == +1", 'Unexpected "+" at position 8: numbers are written without +'],
    ["$.a == 1.", 'Unexpected "1." at position 8: not a valid number (numbers are written like 12, -3.5 or 1e6)'],
    ["$.a == 1e", 'Unexpected "1e" at position 8: not a valid number (numbers are written like 12, -3.5 or 1e6)'],
    ["$.a == -", "Unexpected \"-\" at position 8: expected a digit after -"],
    ["$.a == 1e999", 'Unexpected "1e999" at position 8: the number is too large'],
    ["$.a == 100ms", 'Unexpected "ms" at position 11: the expression should end after the value'],
    ['$.a == "x" )', 'Unexpected ")" at position 12: the expression should end after the value'],
    ["$.a == 1 && $.b == 2", 'Unexpected "&&" at position 10: one comparison per assertion (add another assertion instead)'],
    ["$.a == 1 or $.b", 'Unexpected "or" at position 10: one comparison per assertion (add another assertion instead)'],
    ["$.a == 1 == 2", 'Unexpected "==" at position 10: one operator per assertion (the == at position 5 is already one)'],
    ["$.", 'Expected a name after "." at position 2'],
    ["$.a.", 'Expected a name after "." at position 4'],
    ["$..a", 'Unexpected ".." at position 2: recursive search (..) is not supported, write the full path'],
    ["$.*", 'Unexpected "*" at position 3: wildcards are not supported, write one path'],
    ["$.0", 'Unexpected "0" at position 3: a name cannot start with a digit or -: use [0] for an array element or ["0"] for a key'],
    ["$.-1", 'Unexpected "-1" at position 3: a name cannot start with a digit or -: use [-1] for an array element or ["-1"] for a key'],
    ['$.a."b c"', 'Unexpected "\\"" at position 5: quoted keys go in brackets: $.a["b c"]'],
    ["$.a b.c", 'Unexpected "b.c" at position 5: expected an operator (==, !=, <, <=, >, >= or contains) or the end of the expression'],
    ["$[", 'Expected an index or a "key" after the "[" at position 2'],
    ["$[0", 'Expected "]" to close the "[" at position 2, found the end of the expression'],
    ['$["a" .b', 'Expected "]" to close the "[" at position 2, found ".b" at position 7'],
    ["$[]", 'Unexpected "]" at position 3: empty brackets: write an index like [0] or a key like ["name"]'],
    ["$['a']", 'Unexpected "\'" at position 3: keys use double quotes: ["a"]'],
    ["$[a]", 'Unexpected "a" at position 3: keys in brackets go in double quotes: ["a"] (or write .a)'],
    ["$[1.5]", 'Unexpected "1.5" at position 3: array indexes are whole numbers'],
    ["$[01]", 'Unexpected "01" at position 3: array indexes have no leading zeros: [1]'],
    ["$[-0]", 'Unexpected "-0" at position 3: -0 is not an index: [0] is the first element, [-1] the last'],
    ["$[-]", 'Unexpected "-" at position 3: expected a whole number after -'],
    ["$[99999999999999999999]", 'Unexpected "99999999999999999999" at position 3: the array index is too large'],
    ["$[*]", 'Unexpected "*" at position 3: wildcards are not supported, write one index'],
    ["$[?(@.a)]", 'Unexpected "?" at position 3: filters are not supported, write one index'],
    ["$[0,1]", 'Unexpected "," at position 4: one index or key per bracket'],
    ["$[0:2]", 'Unexpected ":" at position 4: slices are not supported, use one index'],
    ['$["a', 'The text starting at position 3 is not closed: a " is missing'],
    ['$.a == "abc', 'The text starting at position 8 is not closed: a " is missing'],
    ['$.a == "abc\\"', 'The text starting at position 8 is not closed: a " is missing'],
    ['$["a\\x"]', 'Invalid escape "\\x" at position 5: use \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX'],
    ['$["a\\u12"]', "Invalid escape at position 5: \\u takes four hex digits (\\u00e9)"],
    ['$["a\nb"]', "Line break or control character at position 5 inside text: write it as an escape (\\n, \\t…)"],
    ["$.a == [1,]", 'Unexpected "]" at position 11: no comma after the last element'],
    ["$.a == [1 2]", 'Expected "," or "]" in the array at position 8, found "2" at position 11'],
    ["$.a == [1,", 'Expected a value in the array at position 8 (a number, "text", true, false or null)'],
    ['$.a == {"a" 1}', 'Expected ":" after the key "a", found "1" at position 13'],
    ["$.a == {a: 1}", 'Expected a "key" in double quotes in the object at position 8, found "a" at position 9'],
    ['$.a == {"a": 1,}', 'Unexpected "}" at position 16: no comma after the last key'],
    ['$.a == {"a": }', 'Expected a value for the key "a" (a number, "text", true, false or null), found "}" at position 14'],
  ])("%p", (expression, message) => {
    expect(errorOf(expression)).toBe(message);
  });

  test("errors carry the 1-based position", () => {
    try {
      parseJsonAssertion('$.status = "ok"');
      throw new Error("parsed");
    } catch (e) {
      expect(e).toBeInstanceOf(JsonPathError);
      expect((e as JsonPathError).position).toBe(10);
      expect((e as JsonPathError).name).toBe("JsonPathError");
    }
  });

  test("more than 500 characters are refused before parsing", () => {
    const key = "a".repeat(480);
    const fits = `$.${key} == "${"b".repeat(500 - key.length - 8)}"`;
    expect(fits.length).toBe(500);
    expect(parseJsonAssertion(fits).op).toBe("==");
    const long = `${fits} `;
    expect(errorOf(long)).toBe("The expression is too long (501 characters; at most 500)");
    expect(errorOf("$" + ".a".repeat(5000))).toBe("The expression is too long (10001 characters; at most 500)");
  });

  test("deeply nested values are refused", () => {
    expect(errorOf(`$ == ${"[".repeat(30)}${"]".repeat(30)}`)).toBe('Unexpected "[" at position 26: the value is nested too deeply');
    expect(parseJsonAssertion(`$ == ${"[".repeat(20)}${"]".repeat(20)}`).op).toBe("==");
  });
});

describe("failure details", () => {
  test("actual is JSON, cut to 100 characters", () => {
    expect(check('$.status == "down"')).toEqual({ ok: false, missing: false, actual: '"ok"' });
    expect(check("$.data[0] == 1")).toEqual({ ok: false, missing: false, actual: '{"name":"first","id":1}' });
    const verdict = check("$.long == 1", { long: "x".repeat(500) });
    expect(verdict).toEqual({ ok: false, missing: false, actual: `"${"x".repeat(98)}…` });
    if (!verdict.ok && !verdict.missing) expect(verdict.actual.length).toBe(100);
    const exact = check("$.s == 1", { s: "y".repeat(98) }); // 100 with the quotes: not cut
    expect(exact).toEqual({ ok: false, missing: false, actual: `"${"y".repeat(98)}"` });
    const emoji = check("$.e == 1", { e: "😀".repeat(80) });
    if (!emoji.ok && !emoji.missing) {
      expect(emoji.actual.endsWith("…")).toBe(true);
      expect(emoji.actual.length).toBeLessThanOrEqual(100);
      expect(emoji.actual.isWellFormed()).toBe(true);
    }
  });

  test("explainJsonVerdict words a failure", () => {
    const a = parseJsonAssertion('$.data[5].name == "x"');
    expect(explainJsonVerdict(a, evaluateJsonAssertion(a, DOC))).toBe("$.data[5].name is missing (no $.data[5])");
    const b = parseJsonAssertion('$.status == "down"');
    expect(explainJsonVerdict(b, evaluateJsonAssertion(b, DOC))).toBe('$.status is "ok", expected == "down"');
    const c = parseJsonAssertion("$.off");
    expect(explainJsonVerdict(c, evaluateJsonAssertion(c, DOC))).toBe("$.off is false, expected a value other than null or false");
    const d = parseJsonAssertion("$.nope");
    expect(explainJsonVerdict(d, evaluateJsonAssertion(d, DOC))).toBe("$.nope is missing");
    expect(explainJsonVerdict(b, { ok: true })).toBeNull();
  });
});
