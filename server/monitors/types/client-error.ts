// A client library's failure as a check-errors.ts sentence, for the settings check types: socket-level failures by
// their code (network-errors.ts), anything else as "<Protocol> error: <message>"; secrets scrubbed either way.
import { parseCheckError, protocolError, type Protocol } from "../check-errors";
import { describeError } from "./network-errors";
import { scrub } from "./settings-type";

export function clientError(e: unknown, seconds: number, protocol: Protocol, secrets: string[]): string {
  const sentence = describeError(e, seconds);
  const known = parseCheckError(sentence).code !== "OTHER";
  return scrub(known ? sentence : protocolError(protocol, sentence), secrets);
}
