// A small MongoDB server for tests (Debian ships none): it speaks the wire protocol (OP_MSG, and OP_QUERY/OP_REPLY for
// the legacy hello handshake) well enough for the official driver. It answers hello/isMaster, ping, buildInfo and
// dbStats, refuses serverStatus as unauthorised, fails every SCRAM conversation with AuthenticationFailed (code 18),
// and in "silent" mode accepts connections and never answers; "handshake" answers only the handshake.
import { BSON, type Document } from "bson";
import { createServer, type Server, type Socket } from "node:net";

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

export type ResponderMode = "answer" | "silent" | "handshake";

export interface Responder {
  port: number;
  mode: ResponderMode;
  /** Connections accepted and closed so far. */
  accepted: () => number;
  closed: () => number;
  /** The command names received, in order (hello, ping, saslStart…). */
  commands: string[];
  stop: () => Promise<void>;
}

const HANDSHAKE = new Set(["hello", "ismaster", "isMaster"]);

function reply(command: Document, connectionId: number): Document {
  const name = Object.keys(command)[0] ?? "";
  if (HANDSHAKE.has(name)) {
    return {
      ...(name === "hello" ? { isWritablePrimary: true } : { ismaster: true }),
      helloOk: true,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
      ...(command.saslSupportedMechs ? { saslSupportedMechs: ["SCRAM-SHA-256", "SCRAM-SHA-1"] } : {}),
      ok: 1,
    };
  }
  switch (name) {
    case "ping":
    case "endSessions":
      return { ok: 1 };
    case "buildInfo":
      return { version: "7.0.0", versionArray: [7, 0, 0, 0], ok: 1 };
    case "dbStats":
      return { db: command.$db, collections: 3, objects: 42, ok: 1 };
    case "saslStart":
    case "saslContinue":
      return { ok: 0, errmsg: "Authentication failed.", code: 18, codeName: "AuthenticationFailed" };
    case "serverStatus":
      return { ok: 0, errmsg: "not authorized on admin to execute command { serverStatus: 1 }", code: 13, codeName: "Unauthorized" };
    default:
      return { ok: 0, errmsg: `no such command: '${name}'`, code: 59, codeName: "CommandNotFound" };
  }
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(requestId, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

function opMsg(doc: Document, requestId: number, responseTo: number): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const flags = Buffer.alloc(5); // flagBits 0, then section kind 0
  return Buffer.concat([header(16 + 5 + body.length, requestId, responseTo, OP_MSG), flags, body]);
}

function opReply(doc: Document, requestId: number, responseTo: number): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const fields = Buffer.alloc(20); // responseFlags, cursorID (8), startingFrom, numberReturned
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + 20 + body.length, requestId, responseTo, OP_REPLY), fields, body]);
}

/** The command document of a request: OP_MSG's body section (plus its document sequences), or OP_QUERY's query. */
function commandOf(opCode: number, message: Buffer): Document | null {
  if (opCode === OP_MSG) {
    const flags = message.readUInt32LE(16);
    const end = message.length - (flags & 1 ? 4 : 0);
    let at = 20;
    let command: Document | null = null;
    while (at < end) {
      const kind = message[at]!;
      at += 1;
      const size = message.readInt32LE(at);
      if (kind === 0) command = BSON.deserialize(message.subarray(at, at + size));
      at += size;
    }
    return command;
  }
  if (opCode === OP_QUERY) {
    let at = 20;
    while (message[at] !== 0) at++;
    at += 9; // the name's NUL, numberToSkip, numberToReturn
    const query = BSON.deserialize(message.subarray(at, at + message.readInt32LE(at)));
    return "$query" in query ? (query.$query as Document) : query;
  }
  return null;
}

export async function startResponder(mode: ResponderMode = "answer"): Promise<Responder> {
  let accepted = 0;
  let closed = 0;
  let nextId = 1;
  const commands: string[] = [];
  const sockets = new Set<Socket>();
  const state = { mode };
  const server: Server = createServer((socket) => {
    accepted++;
    const connectionId = accepted;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => {
      closed++;
      sockets.delete(socket);
    });
    let pending = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 16 && pending.length >= pending.readInt32LE(0)) {
        const message = pending.subarray(0, pending.readInt32LE(0));
        pending = pending.subarray(message.length);
        const opCode = message.readInt32LE(12);
        const command = commandOf(opCode, message);
        if (!command) continue;
        const name = Object.keys(command)[0] ?? "";
        commands.push(name);
        if (state.mode === "silent" || (state.mode === "handshake" && !HANDSHAKE.has(name))) continue;
        const doc = reply(command, connectionId);
        const requestId = message.readInt32LE(4);
        socket.write(opCode === OP_QUERY ? opReply(doc, nextId++, requestId) : opMsg(doc, nextId++, requestId));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    get mode() {
      return state.mode;
    },
    set mode(m: ResponderMode) {
      state.mode = m;
    },
    accepted: () => accepted,
    closed: () => closed,
    commands,
    stop: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
