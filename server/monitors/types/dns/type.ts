// The dns check type: its fields' rules and how it names what it checks (the query itself is in dns.ts).
import { isIP } from "node:net";
import { badRequest } from "../../../http/errors";
import { literalProblem } from "../../../net/targets";
import { RESOLVER_MESSAGE } from "../../schemas";
import type { CheckType } from "../check-type";
import { normaliseHost } from "../host";
import { checkDns, parseResolver } from "./dns";

export const dnsType: CheckType = {
  type: "dns",
  validate(fields, policy) {
    fields.host = normaliseHost(fields.host);
    if (fields.dnsExpected !== null) fields.dnsExpected = fields.dnsExpected.trim() || null;
    const raw = fields.dnsResolver?.trim() ?? "";
    if (!raw) {
      fields.dnsResolver = null;
      return;
    }
    const resolver = parseResolver(raw);
    if (!resolver) throw badRequest("INVALID_RESOLVER", RESOLVER_MESSAGE);
    // The resolver is contacted: the address policy applies to it (the answers are only read).
    const problem = literalProblem(resolver.host, policy);
    if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
    const host = isIP(resolver.host) === 6 ? `[${resolver.host}]` : resolver.host;
    fields.dnsResolver = resolver.port === 53 ? resolver.host : `${host}:${resolver.port}`;
  },
  check: (fields, ctx) => checkDns(fields, ctx.signal),
  target: (fields) => `${fields.host} ${fields.dnsRecordType}`,
  facts: (fields) => ({ record: fields.dnsRecordType, ...(fields.dnsResolver ? { resolver: fields.dnsResolver } : {}) }),
};
