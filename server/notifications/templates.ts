// Message templates: per channel, an optional title and body for each event kind, in Liquid (liquidjs). Liquid runs
// no code: a template reads the event's own fields (no prototype, no globals), cannot include files, and is stopped
// past a time and memory budget; its output is cut to a bounded length. The webhook channel's body template is the
// whole request body: every {{ … }} in it writes a JSON value (strings quoted and escaped), and the result must parse.
import { Liquid, Tag, type Template } from "liquidjs";
import { badRequest, HttpError } from "../http/errors";
import { renderMessage } from "./messages";
import type { NotificationMessage } from "./providers/provider";
import { webhookBody } from "./providers/webhook";
import type { ChannelType, NotificationEventKind, NotificationLanguage } from "./public";
import { SAMPLE_CHECK_TYPES, sampleEvent, TEMPLATE_KINDS, TEMPLATE_VARIABLES, templateScope, type SampleCheckType } from "./template-context";

export type TemplateKind = (typeof TEMPLATE_KINDS)[number];
export type MessageTemplate = { title?: string; body?: string };
/** A channel's templates by event kind; a kind left out (or a part left empty) keeps the built-in message. */
export type ChannelTemplates = Partial<Record<TemplateKind, MessageTemplate>>;

/** Source limits (characters) and output limits: a title is one line, a body a message. */
const MAX_SOURCE = { title: 500, body: 10_000 };
const MAX_OUTPUT = { title: 250, body: 4_000, json: 65_536 };

/** Tags that would reach files: refused where they stand, with their line and column. */
class RefusedTag extends Tag {
  constructor(...args: ConstructorParameters<typeof Tag>) {
    super(...args);
    throw new Error(`the "${this.name}" tag is not allowed in message templates`);
  }
  *render() {}
}

function engine(outputEscape?: "json") {
  const liquid = new Liquid({
    ownPropertyOnly: true, // x.constructor, s.__proto__ … read nothing
    strictFilters: true,
    outputEscape,
    parseLimit: 20_000,
    renderLimit: 100, // ms of rendering
    memoryLimit: 1_000_000, // characters allocated by filters and loops
    relativeReference: false,
    fs: {
      // No file is ever read (include/render/layout are refused anyway).
      exists: async () => false,
      existsSync: () => false,
      readFile: async () => "",
      readFileSync: () => "",
      resolve: (_dir: string, file: string) => file,
      sep: "/",
    },
  });
  for (const tag of ["include", "render", "layout", "block"]) liquid.registerTag(tag, RefusedTag);
  return liquid;
}

const text = engine();
const json = engine("json");

/** A template problem, with where it is (1-based line and column in the template's source), when known. */
export interface TemplateProblem {
  message: string;
  line?: number;
  column?: number;
}

function problemOf(error: unknown): TemplateProblem {
  const e = error as { message?: string; token?: { getPosition?: () => [number, number] }; originalError?: Error };
  const [line, column] = e.token?.getPosition?.() ?? [];
  // liquidjs appends ", line:2, col:3" to its messages: the position is returned apart.
  const message = String(e.originalError?.message ?? e.message ?? error).replace(/, line:\d+, col:\d+$/, "");
  return { message, line, column };
}

/** Unknown variables (outside the documented ones, locals of for/assign aside) with where they first appear. */
function unknownVariable(engine: Liquid, template: Template[]): TemplateProblem | null {
  const { globals } = engine.analyzeSync(template);
  for (const [root, uses] of Object.entries(globals)) {
    for (const use of uses) {
      const [, field] = use.segments;
      const known = (TEMPLATE_VARIABLES.roots as readonly string[]).includes(root) &&
        (typeof field !== "string" || !(root === "target" || root === "facts") || (TEMPLATE_VARIABLES[root] as readonly string[]).includes(field as string));
      if (!known) {
        const name = use.segments.filter((s) => typeof s === "string").slice(0, root === "target" || root === "facts" ? 2 : 1).join(".");
        return { message: `unknown variable: ${name}`, line: use.location.row, column: use.location.col };
      }
    }
  }
  return null;
}

type Part = "title" | "body";
const isJsonBody = (type: ChannelType, part: Part) => type === "webhook" && part === "body";

/** Parses and checks one template; its problem, or the parsed template. */
function compile(source: string, type: ChannelType, part: Part): { ok: true; template: Template[] } | { ok: false; problem: TemplateProblem } {
  const liquid = isJsonBody(type, part) ? json : text;
  let template: Template[];
  try {
    template = liquid.parse(source);
  } catch (e) {
    return { ok: false, problem: problemOf(e) };
  }
  const unknown = unknownVariable(liquid, template);
  return unknown ? { ok: false, problem: unknown } : { ok: true, template };
}

/** Where JSON.parse stopped, as a line and column of the rendered text. */
function jsonProblem(rendered: string, error: unknown): TemplateProblem {
  const at = Number(/position (\d+)/.exec(String((error as Error).message))?.[1]);
  const message = `the body is not valid JSON: ${(error as Error).message}`;
  if (!Number.isFinite(at)) return { message };
  const before = rendered.slice(0, at).split("\n");
  return { message, line: before.length, column: before[before.length - 1]!.length + 1 };
}

type Rendered = { ok: true; text: string } | { ok: false; problem: TemplateProblem };

function renderPart(source: string, type: ChannelType, part: Part, scope: Record<string, unknown>): Rendered {
  const compiled = compile(source, type, part);
  if (!compiled.ok) return compiled;
  const liquid = isJsonBody(type, part) ? json : text;
  let out: string;
  try {
    out = String(liquid.renderSync(compiled.template, scope));
  } catch (e) {
    return { ok: false, problem: problemOf(e) };
  }
  if (isJsonBody(type, part)) {
    if (out.length > MAX_OUTPUT.json) return { ok: false, problem: { message: `the body is longer than ${MAX_OUTPUT.json} characters` } };
    try {
      JSON.parse(out);
    } catch (e) {
      return { ok: false, problem: jsonProblem(out, e) };
    }
    return { ok: true, text: out };
  }
  out = out.trim();
  if (part === "title") out = out.replace(/\s*\n\s*/g, " ");
  const max = MAX_OUTPUT[part];
  return { ok: true, text: out.length > max ? `${out.slice(0, max - 1)}…` : out };
}

/**
 * The message with the channel's template for its kind applied (a storm message takes its kind when all its events
 * share it; a mixed one keeps the built-in text). A template that fails at send time (its budget, a body that is not
 * JSON for this event) leaves that part built-in: the alert still goes out.
 */
export function applyTemplates(message: NotificationMessage, templates: ChannelTemplates | null | undefined, type: ChannelType, timeZone: string, baseUrl?: string, onError?: (problem: TemplateProblem) => void): NotificationMessage {
  const kind = message.events[0]?.kind;
  if (!templates || !kind || message.events.some((e) => e.kind !== kind)) return message;
  const template = templates[kind as TemplateKind];
  if (!template?.title && !template?.body) return message;
  const scope = templateScope(message, timeZone, baseUrl);
  const result: NotificationMessage = { ...message };
  if (template.title) {
    const title = renderPart(template.title, type, "title", scope);
    if (title.ok && title.text) result.title = title.text;
    else if (!title.ok) onError?.(title.problem);
  }
  if (template.body) {
    const body = renderPart(template.body, type, "body", scope);
    if (!body.ok) onError?.(body.problem);
    else if (isJsonBody(type, "body")) result.body = body.text;
    else if (body.text) result.lines = body.text.split("\n");
  }
  return result;
}

/** A 400 naming the template part and where in it the problem is. */
function templateError(kind: string, part: Part, problem: TemplateProblem): HttpError {
  const where = problem.line !== undefined ? ` (line ${problem.line}, column ${problem.column})` : "";
  return new HttpError(400, "TEMPLATE_INVALID", `Template ${kind} ${part}: ${problem.message}${where}`, { field: `templates.${kind}.${part}`, line: problem.line ?? null, column: problem.column ?? null, detail: problem.message });
}

/**
 * Checks a channel's templates on save: known kinds, sizes, syntax, variables, and a render of each against the
 * sample event of its kind (so a webhook body that is not JSON is refused now, not at 3 a.m.). Empty parts drop out.
 */
export function validateTemplates(input: unknown, type: ChannelType): ChannelTemplates {
  if (input === null || input === undefined) return {};
  if (typeof input !== "object" || Array.isArray(input)) throw badRequest("TEMPLATE_INVALID", "templates must be an object of event kinds");
  const out: ChannelTemplates = {};
  for (const [kind, value] of Object.entries(input as Record<string, unknown>)) {
    if (!(TEMPLATE_KINDS as readonly string[]).includes(kind)) throw badRequest("TEMPLATE_INVALID", `templates: unknown event kind "${kind}" (one of ${TEMPLATE_KINDS.join(", ")})`);
    if (value === null || value === undefined) continue;
    if (typeof value !== "object" || Array.isArray(value)) throw badRequest("TEMPLATE_INVALID", `templates.${kind} must be an object with a title and a body`);
    const kept: MessageTemplate = {};
    for (const part of ["title", "body"] as const) {
      const source = (value as Record<string, unknown>)[part];
      if (source === undefined || source === null || source === "") continue;
      if (typeof source !== "string") throw badRequest("TEMPLATE_INVALID", `templates.${kind}.${part} must be text`);
      if (source.length > MAX_SOURCE[part]) throw templateError(kind, part, { message: `longer than ${MAX_SOURCE[part]} characters` });
      if (!source.trim()) continue;
      // Against every sample monitor type: a webhook body must stay JSON for a database's alert as for a URL's.
      for (const checkType of SAMPLE_CHECK_TYPES) {
        const sample = renderMessage([sampleEvent(kind as NotificationEventKind, checkType, "https://vigil.example.com")], "en-US", "UTC");
        const rendered = renderPart(source, type, part, templateScope(sample, "UTC", "https://vigil.example.com"));
        if (!rendered.ok) throw templateError(kind, part, rendered.problem);
      }
      kept[part] = source;
    }
    if (kept.title || kept.body) out[kind as TemplateKind] = kept;
  }
  return out;
}

/** POST /api/notifications/templates/preview: a sample event of the kind rendered through the template in a language. */
export function previewTemplate(input: { type: ChannelType; kind: TemplateKind; checkType?: SampleCheckType; title?: string; body?: string; lang: NotificationLanguage; timeZone: string; baseUrl?: string }) {
  const sample = renderMessage([sampleEvent(input.kind, input.checkType, input.baseUrl)], input.lang, input.timeZone);
  const scope = templateScope(sample, input.timeZone, input.baseUrl);
  const part = (p: Part, source: string | undefined, builtIn: string) => {
    if (!source?.trim()) return { text: builtIn, problem: null };
    const rendered = renderPart(source, input.type, p, scope);
    return rendered.ok ? { text: rendered.text, problem: null } : { text: null, problem: rendered.problem };
  };
  const title = part("title", input.title, sample.title);
  // The webhook's built-in body carries the (templated) title.
  const builtInBody = isJsonBody(input.type, "body") ? webhookBody({ ...sample, title: title.text ?? sample.title }) : sample.lines.join("\n");
  return { title, body: part("body", input.body, builtInBody) };
}
