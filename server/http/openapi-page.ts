// The browsable API docs (/api/docs): the OpenAPI document as one self-contained HTML page. No script and no asset
// (see apiDocs in openapi.ts for why): <details> elements expand, anchors navigate, and an inline <style> is all the
// CSP allows and all it needs.
import { METHODS, type JsonSchema, type OpenApiDocument, type Operation, type Parameter, type Reference, type ResponseObject } from "./openapi";

const escape = (text: unknown) =>
  String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Escaped text with `code` spans: the little Markdown the descriptions use. */
const inline = (text: string) => escape(text).replace(/`([^`]+)`/g, "<code>$1</code>");

const paragraphs = (text: string | undefined) =>
  (text ?? "")
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => `<p>${inline(p.trim())}</p>`)
    .join("");

const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);
const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, "-");

const ACCESS: Record<string, string> = {
  user: "Signed in (session or API token)",
  admin: "Admins only (session or API token)",
  accounts: "Admins only: account management (session, or an API token with full access)",
  self: "Signed in: your own account, or an admin for anyone's (an API token needs full access)",
  session: "Signed in with a session (an API token is refused)",
  agent: "An agent's credential",
};
const BADGE: Record<string, string> = { user: "sign-in", admin: "admin", accounts: "admin", self: "sign-in", session: "session", agent: "agent" };

/**
 * The schema as the validator reads it, minus Elysia's coercion branch: `t.Integer()` and friends also accept a
 * string of digits, which the document spells `anyOf: [{ type: string, format: integer }, { type: integer }]`.
 */
function simplify(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (!anyOf) return schema;
  const kept = anyOf.filter((s) => !(s.type === "string" && (s.format === "integer" || s.format === "numeric")));
  if (kept.length !== 1 || kept.length === anyOf.length) return schema;
  const { anyOf: _, ...rest } = schema;
  return simplify({ ...rest, ...kept[0] });
}

function typeLabel(raw: JsonSchema, depth = 0): string {
  const schema = simplify(raw);
  if (depth > 6) return "…";
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) return union.map((s) => typeLabel(s, depth + 1)).join(" | ");
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  if (types.length === 0) return schema.properties ? "object" : "any";
  return types.map((type) => (type === "array" && schema.items ? `array of ${typeLabel(schema.items as JsonSchema, depth + 1)}` : type)).join(" | ");
}

const range = (min: unknown, max: unknown, unit = "") =>
  min !== undefined && max !== undefined ? `${min}–${max}${unit}` : min !== undefined ? `≥ ${min}${unit}` : max !== undefined ? `≤ ${max}${unit}` : "";

/** The checks on a value, in words: lengths, bounds, pattern, format, default. */
function constraints(raw: JsonSchema): string[] {
  const s = simplify(raw);
  const out: string[] = [];
  const length = range(s.minLength, s.maxLength, " chars");
  if (length) out.push(length);
  const bounds = range(s.minimum, s.maximum);
  if (bounds) out.push(bounds);
  const items = range(s.minItems, s.maxItems, " items");
  if (items) out.push(items);
  if (typeof s.pattern === "string") out.push(`pattern <code>${escape(s.pattern)}</code>`);
  if (typeof s.format === "string") out.push(`format ${escape(s.format)}`);
  if (s.default !== undefined) out.push(`default <code>${escape(JSON.stringify(s.default))}</code>`);
  return out.map((c) => (c.includes("<code>") ? c : escape(c)));
}

/** The object an element of the schema describes, if it has named fields worth listing. */
function fieldsOf(raw: JsonSchema): JsonSchema | undefined {
  const schema = simplify(raw);
  if (schema.properties) return schema;
  if (schema.items) return fieldsOf(schema.items as JsonSchema);
  for (const branch of ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined) ?? []) {
    const found = fieldsOf(branch);
    if (found) return found;
  }
  return undefined;
}

function schemaTree(raw: JsonSchema, depth = 0): string {
  const object = fieldsOf(raw);
  if (!object || depth > 8) return "";
  const required = new Set((object.required as string[] | undefined) ?? []);
  const rows = Object.entries(object.properties as Record<string, JsonSchema>).map(([name, prop]) => {
    const notes = [required.has(name) ? `<span class="req">required</span>` : `<span class="opt">optional</span>`, ...constraints(prop)];
    const description = typeof prop.description === "string" ? ` — ${inline(prop.description)}` : "";
    return `<li><code class="name">${escape(name)}</code> <span class="type">${escape(typeLabel(prop))}</span> ${notes.join(" · ")}${description}${schemaTree(prop, depth + 1)}</li>`;
  });
  return rows.length ? `<ul class="fields">${rows.join("")}</ul>` : "";
}

function schemaBlock(schema: JsonSchema | undefined): string {
  if (!schema) return "";
  if (typeof schema.$ref === "string") {
    const name = refName(schema.$ref);
    return `<p><a href="#schema-${slug(name)}">${escape(name)} envelope</a></p>`;
  }
  const tree = schemaTree(schema);
  const top = constraints(schema);
  return `<p><span class="type">${escape(typeLabel(schema))}</span>${top.length ? " " + top.join(" · ") : ""}</p>${tree}`;
}

function parametersTable(parameters: Parameter[]): string {
  const rows = parameters.map((p) => {
    const schema = p.schema ?? {};
    const notes = constraints(schema);
    return `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td><td class="type">${escape(typeLabel(schema))}</td><td>${p.required ? "required" : "optional"}</td><td>${notes.join(" · ")}</td></tr>`;
  });
  return `<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th></th><th>Checks</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function responsesList(doc: OpenApiDocument, responses: Record<string, ResponseObject | Reference>): string {
  // "2XX" sorts as 200: JSON objects list integer keys first, whatever order they were written in.
  const rank = (status: string) => Number(status.replace(/X/g, "0"));
  const sorted = Object.entries(responses).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  const items = sorted.map(([status, response]) => {
    const resolved = "$ref" in response ? doc.components.responses[refName(response.$ref)] : response;
    const [type, media] = Object.entries(resolved?.content ?? {})[0] ?? [];
    const schema = media?.schema;
    const body =
      typeof schema?.$ref === "string"
        ? `<a href="#schema-${slug(refName(schema.$ref))}">${escape(refName(schema.$ref))} envelope</a>`
        : type
          ? `<code>${escape(type)}</code>`
          : "";
    const kind = status.startsWith("2") || status.startsWith("3") ? "ok" : "err";
    return `<li><span class="status ${kind}">${escape(status)}</span> ${inline(resolved?.description ?? "")}${body ? ` — ${body}` : ""}</li>`;
  });
  return `<ul class="responses">${items.join("")}</ul>`;
}

function operationBlock(doc: OpenApiDocument, path: string, method: string, op: Operation): string {
  const access = op["x-vigil-access"];
  const badge = access ? `<span class="badge">${escape(BADGE[access] ?? access)}</span>` : `<span class="badge public">public</span>`;
  const parts: string[] = [];
  if (op.description) parts.push(paragraphs(op.description));
  const scope = op["x-vigil-token-scope"];
  parts.push(`<h4>Authorization</h4><p>${escape(access ? (ACCESS[access] ?? access) : "None: anyone may call it")}${op.security?.length ? ` — <code>Authorization: Bearer …</code> (${escape(op.security.map((s) => Object.keys(s).join(" + ")).join(" or "))})` : ""}${scope ? `; an API token needs the <code>${escape(scope)}</code> scope` : ""}</p>`);
  if (op.parameters?.length) parts.push(`<h4>Parameters</h4>${parametersTable(op.parameters)}`);
  const body = op.requestBody?.content["application/json"]?.schema;
  if (body) parts.push(`<h4>Request body <code>application/json</code></h4>${schemaBlock(body)}`);
  if (op.responses) parts.push(`<h4>Responses</h4>${responsesList(doc, op.responses)}`);
  const id = slug(op.operationId ?? `${method}-${path}`);
  return `<details id="op-${id}"><summary><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escape(path)}</code> <span class="summary">${escape(op.summary ?? "")}</span> ${badge}</summary><div class="op">${parts.join("")}</div></details>`;
}

const STYLE = `
:root{color-scheme:light dark;--bg:#fafafa;--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--card:#fff;--accent:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--line:#30363d;--card:#161b22;--accent:#4493f8}}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
header{padding:24px 32px;border-bottom:1px solid var(--line)}header h1{margin:0 0 4px;font-size:24px}header h1 small{font-weight:400;color:var(--muted);font-size:15px}
.layout{display:flex;align-items:flex-start}nav{position:sticky;top:0;width:220px;flex:none;padding:16px 24px;max-height:100vh;overflow:auto}
nav a{display:block;padding:3px 0;text-decoration:none}nav .count{color:var(--muted);font-size:12px}
main{flex:1;min-width:0;padding:8px 32px 64px;max-width:1100px}h2{margin:32px 0 4px;text-transform:capitalize}h2+p{margin-top:0;color:var(--muted)}
details{background:var(--card);border:1px solid var(--line);border-radius:6px;margin:6px 0}
summary{cursor:pointer;padding:8px 12px;display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
.summary{color:var(--muted)}.op{padding:0 16px 12px;border-top:1px solid var(--line)}h4{margin:14px 0 4px}
.method{display:inline-block;min-width:64px;text-align:center;font:700 12px ui-monospace,monospace;padding:2px 6px;border-radius:4px;color:#fff;background:#6e7781}
.get{background:#1a7f37}.post{background:#0969da}.put{background:#9a6700}.delete{background:#cf222e}.patch{background:#8250df}
.badge{margin-left:auto;font-size:12px;padding:1px 8px;border-radius:10px;border:1px solid var(--line);color:var(--muted)}.badge.public{border-style:dashed}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
.type{color:#8250df}@media (prefers-color-scheme:dark){.type{color:#d2a8ff}}
ul.fields{list-style:none;padding-left:18px;margin:4px 0;border-left:1px solid var(--line)}ul.fields li{margin:3px 0}
.req{color:#cf222e;font-size:12px}.opt{color:var(--muted);font-size:12px}
ul.responses{list-style:none;padding:0;margin:0}.status{display:inline-block;min-width:40px;font:700 13px ui-monospace,monospace}.status.ok{color:#1a7f37}.status.err{color:#cf222e}
@media (max-width:800px){nav{display:none}main,header{padding-left:16px;padding-right:16px}}
`;

/** The whole page: conventions and envelopes first, then each tag's operations in route order. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const tag of doc.tags) byTag.set(tag.name, []);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationBlock(doc, path, method, op));
    }
  }
  const descriptions = new Map(doc.tags.map((t) => [t.name, t.description]));
  const sections = [...byTag].filter(([, ops]) => ops.length > 0);

  const envelopes = Object.entries(doc.components.schemas)
    .map(([name, schema]) => `<h3 id="schema-${slug(name)}">${escape(name)}</h3>${paragraphs(schema.description as string | undefined)}${schemaTree(schema)}`)
    .join("");
  const schemes = Object.entries(doc.components.securitySchemes)
    .map(([name, s]) => `<li><code>${escape(name)}</code>: ${inline(s.description ?? "")}</li>`)
    .join("");

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)} ${escape(doc.info.version)}</title><style>${STYLE}</style></head>
<body><header><h1>${escape(doc.info.title)} <small>${escape(doc.info.version)} · OpenAPI ${escape(doc.openapi)}</small></h1>
<div>The machine-readable document: <a href="/api/docs/json">/api/docs/json</a></div></header>
<div class="layout"><nav><a href="#conventions">Conventions</a>${sections
    .map(([tag, ops]) => `<a href="#tag-${slug(tag)}">${escape(tag)} <span class="count">${ops.length}</span></a>`)
    .join("")}</nav>
<main><section id="conventions"><h2>Conventions</h2>${paragraphs(doc.info.description)}<h3>Credentials</h3><ul>${schemes}</ul>${envelopes}</section>
${sections
  .map(([tag, ops]) => `<section id="tag-${slug(tag)}"><h2>${escape(tag)}</h2>${descriptions.get(tag) ? `<p>${inline(descriptions.get(tag)!)}</p>` : ""}${ops.join("")}</section>`)
  .join("\n")}
</main></div></body></html>`;
}
