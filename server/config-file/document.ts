// Reading a configuration file: YAML with source positions (eemeli/yaml's parseDocument and LineCounter), ${NAME}
// references substituted from an environment, and every problem as a FileProblem naming the line, column and field
// path ("line 12, monitors[2].intervalSeconds: …") so an editor or a CI log points straight at it.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from "yaml";
import { HttpError } from "../http/http-error";

export type Path = (string | number)[];

export interface FileProblem {
  line: number | null;
  column: number | null;
  /** The field's path: monitors[2].intervalSeconds. */
  path: string;
  message: string;
}

export const pathText = (path: Path): string =>
  path.reduce<string>((out, p) => (typeof p === "number" ? `${out}[${p}]` : out ? `${out}.${p}` : p), "");

export const problemText = (p: FileProblem): string =>
  `${p.line === null ? "" : `line ${p.line}, `}${p.path ? `${p.path}: ` : ""}${p.message}`;

/** A 400 carrying every problem (the message names the first ones; `problems` lists all). */
export function invalidFile(problems: FileProblem[]): HttpError {
  const shown = problems.slice(0, 5).map(problemText).join("; ");
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : "";
  return new HttpError(400, "CONFIG_INVALID", `The configuration file is invalid: ${shown}${more}`, { problems });
}

/** A parsed file: its plain value, and where each path is in the text. */
export interface ParsedFile {
  value: unknown;
  /** The position of the node at `path` (or of the nearest enclosing node that exists); `key` points at the key itself. */
  at(path: Path, message: string, opts?: { key?: boolean }): FileProblem;
}

/** `${NAME}` (upper case, digits, underscores); `$${` writes a literal `${`. */
const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses the text and substitutes ${NAME} references in string values from `env`. Syntax errors and missing variables
 * are problems with their lines; a document with any is refused whole (throws the 400).
 */
export function readFile(text: string, env: Record<string, string | undefined>): ParsedFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const position = (offset: number | undefined) => {
    if (offset === undefined) return { line: null, column: null };
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const problems: FileProblem[] = doc.errors.map((e) => ({ ...position(e.pos[0]), path: "", message: e.message.split("\n")[0]! }));
  if (problems.length) throw invalidFile(problems);

  visit(doc, {
    Scalar(_key, node, ancestors) {
      if (typeof node.value !== "string" || !node.value.includes("$")) return;
      // Keys are never substituted: only values.
      const parent = ancestors.at(-1);
      if (isPair(parent) && parent.key === node) return;
      node.value = node.value.replace(REFERENCE, (whole, name: string | undefined) => {
        if (name === undefined) return "${";
        const value = env[name];
        if (value === undefined) {
          problems.push({ ...position(node.range?.[0]), path: pathText(pathOf(doc, node)), message: `the environment variable ${name} is not set` });
          return whole;
        }
        return value;
      });
    },
  });
  if (problems.length) throw invalidFile(problems);

  return {
    value: doc.toJS({ maxAliasCount: 100 }),
    at(path, message, { key = false } = {}) {
      let node: Node | null | undefined;
      let keyNode: Node | null | undefined;
      for (let n = path.length; n >= 0 && !node; n--) {
        node = nodeAt(doc, path.slice(0, n));
        if (node && key && n === path.length && n > 0) keyNode = keyAt(doc, path.slice(0, n - 1), path[n - 1]!);
      }
      return { ...position((keyNode ?? node)?.range?.[0]), path: pathText(path), message };
    },
  };
}

function nodeAt(doc: Document, path: Path): Node | undefined {
  const node = path.length === 0 ? doc.contents : doc.getIn(path, true);
  return node && typeof node === "object" && "range" in node ? (node as Node) : undefined;
}

function keyAt(doc: Document, parent: Path, name: string | number): Node | undefined {
  const map = nodeAt(doc, parent);
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === name);
  return isScalar(pair?.key) ? pair.key : undefined;
}

/** The path of a node, by walking from the top (only for the rare missing-variable message). */
function pathOf(doc: Document, target: Node): Path {
  const walk = (node: unknown, path: Path): Path | null => {
    if (node === target) return path;
    if (isMap(node)) {
      for (const pair of node.items) {
        const found = walk(pair.value, [...path, isScalar(pair.key) ? String(pair.key.value) : "?"]);
        if (found) return found;
      }
    } else if (isSeq(node)) {
      for (let i = 0; i < node.items.length; i++) {
        const found = walk(node.items[i], [...path, i]);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(doc.contents, []) ?? [];
}
