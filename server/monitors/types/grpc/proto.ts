// A unary call described by a monitor's .proto text: parsed in memory with protobufjs (what @grpc/proto-loader builds
// on; proto-loader itself only reads files or JSON descriptors), the method found, the request JSON checked against its
// message. Used when settings are saved (a 400 with the message) and again by each check.
import * as protobuf from "protobufjs";

/** Why a proto, method or request cannot make a call: `code` is the 400's code, the message says what to fix. */
export class ProtoProblem extends Error {
  constructor(
    readonly code: "INVALID_PROTO" | "INVALID_METHOD" | "INVALID_REQUEST",
    message: string,
  ) {
    super(message);
  }
}

/** The reply as JSON in protobuf's JSON mapping (as Kuma printed it too): enum names, 64-bit and bytes as strings, fields left at their default omitted. */
const REPLY_JSON: protobuf.IConversionOptions = { enums: String, longs: String, bytes: String, json: true };

export interface UnaryCall {
  /** "/package.Service/Method", as gRPC sends it. */
  path: string;
  serialize: (request: object) => Buffer;
  deserialize: (reply: Buffer) => object;
  request: object;
}

function parseProto(text: string): protobuf.Root {
  try {
    const parsed = protobuf.parse(text, new protobuf.Root(), { keepCase: false });
    for (const file of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) {
      // Google's well-known types come with protobufjs; any other import is a file Vigil does not have.
      const common = protobuf.common.get(file);
      if (!common?.nested) throw new ProtoProblem("INVALID_PROTO", `The .proto imports "${file}": paste the messages it needs into this one (only google/protobuf/*.proto can be imported)`);
      parsed.root.addJSON(common.nested);
    }
    parsed.root.resolveAll();
    return parsed.root;
  } catch (e) {
    if (e instanceof ProtoProblem) throw e;
    throw new ProtoProblem("INVALID_PROTO", `The .proto does not parse: ${(e as Error).message}`);
  }
}

function findMethod(root: protobuf.Root, name: string): { service: string; method: protobuf.Method } {
  const m = /^(.+)\/([^/]+)$/.exec(name);
  const service = m ? root.lookup(m[1]!) : null;
  const method = service instanceof protobuf.Service ? service.methods[m![2]!] : undefined;
  if (!method) throw new ProtoProblem("INVALID_METHOD", `The .proto has no method ${name} (write it as package.Service/Method)`);
  if (method.requestStream || method.responseStream) throw new ProtoProblem("INVALID_METHOD", `${name} streams: only a unary method (one request, one reply) can be called`);
  return { service: service!.fullName.replace(/^\./, ""), method };
}

const INTEGER = /^-?\d+$/;
const INT32 = new Set(["int32", "uint32", "sint32", "fixed32", "sfixed32"]);
const INT64 = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

/**
 * A JSON value as the message wants it, with field names written as in the .proto (order_id) turned into protobufjs's
 * (orderId); throws where it does not fit, since protobufjs would silently drop an unknown field or zero a wrong value.
 */
function fit(type: protobuf.Type, value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ProtoProblem("INVALID_REQUEST", `${at || "The request"} must be a JSON object (a ${type.name} message)`);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = type.fields[key] ?? type.fields[protobuf.util.camelCase(key)];
    const path = at ? `${at}.${key}` : key;
    if (!field) throw new ProtoProblem("INVALID_REQUEST", `The request's ${path}: ${type.name} has no such field (it has ${type.fieldsArray.map((f) => f.name).join(", ") || "none"})`);
    if (v === null) continue; // JSON's null: the field left unset
    if (field.map) {
      if (typeof v !== "object" || Array.isArray(v)) throw new ProtoProblem("INVALID_REQUEST", `The request's ${path} must be a JSON object (a map)`);
      out[field.name] = Object.fromEntries(Object.entries(v).map(([k, item]) => [k, fitValue(field, item, `${path}.${k}`)]));
    } else if (field.repeated) {
      if (!Array.isArray(v)) throw new ProtoProblem("INVALID_REQUEST", `The request's ${path} must be a JSON array`);
      out[field.name] = v.map((item, i) => fitValue(field, item, `${path}[${i}]`));
    } else out[field.name] = fitValue(field, v, path);
  }
  return out;
}

function fitValue(field: protobuf.Field, v: unknown, path: string): unknown {
  const type = field.resolvedType;
  if (type instanceof protobuf.Type) return fit(type, v, `The request's ${path}`);
  const wrong = (what: string) => new ProtoProblem("INVALID_REQUEST", `The request's ${path} must be ${what}`);
  if (type instanceof protobuf.Enum) {
    if ((typeof v === "string" && v in type.values) || (typeof v === "number" && Number.isInteger(v))) return v;
    throw wrong(`one of ${Object.keys(type.values).join(", ")}`);
  }
  if (field.type === "string") {
    if (typeof v !== "string") throw wrong("a string");
  } else if (field.type === "bool") {
    if (typeof v !== "boolean") throw wrong("true or false");
  } else if (field.type === "bytes") {
    if (typeof v !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) throw wrong("base64 text");
  } else if (field.type === "double" || field.type === "float") {
    if (typeof v !== "number") throw wrong("a number");
  } else if (INT32.has(field.type)) {
    if (!Number.isInteger(v)) throw wrong("a whole number");
  } else if (INT64.has(field.type)) {
    if (!Number.isSafeInteger(v) && !(typeof v === "string" && INTEGER.test(v))) throw wrong("a whole number (in quotes when beyond 2^53)");
  }
  return v;
}

/** The call a unary monitor makes; throws a ProtoProblem when the proto, method or request is not one. */
export function unaryCall(protoText: string, methodName: string, requestJson: string): UnaryCall {
  if (!protoText.trim()) throw new ProtoProblem("INVALID_PROTO", "A unary call needs the service's .proto");
  const root = parseProto(protoText);
  const { service, method } = findMethod(root, methodName);
  let parsed: unknown;
  try {
    parsed = JSON.parse(requestJson.trim() || "{}");
  } catch (e) {
    throw new ProtoProblem("INVALID_REQUEST", `The request is not JSON: ${(e as Error).message}`);
  }
  const requestType = method.resolvedRequestType!;
  const replyType = method.resolvedResponseType!;
  return {
    path: `/${service}/${method.name}`,
    request: fit(requestType, parsed, ""),
    serialize: (request) => Buffer.from(requestType.encode(requestType.fromObject(request)).finish()),
    deserialize: (reply) => replyType.toObject(replyType.decode(reply), REPLY_JSON),
  };
}
