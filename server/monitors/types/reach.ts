// The address a check connects to, judged by the address policy first: a host written as an address is taken as
// such ("127.1" is 127.0.0.1), a name is resolved and every address it has must be allowed (a name cannot resolve to
// an allowed address for the check and a forbidden one for the connection). Checks connect to the address returned.
import { addressProblem, literalAddress, literalProblem, type Resolve, type TargetPolicy } from "../../net/targets";
import { CHECK_ERROR_TEXT } from "../check-errors";

export type Reach = { address: string; error?: undefined } | { address?: undefined; error: string };

export async function reachHost(host: string, policy: TargetPolicy, resolve: Resolve): Promise<Reach> {
  const literal = literalProblem(host, policy);
  if (literal) return { error: `Target refused: ${literal}` };
  const address = literalAddress(host);
  if (address) return { address };
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return { error: CHECK_ERROR_TEXT.DNS };
  }
  if (!addresses.length) return { error: CHECK_ERROR_TEXT.DNS };
  for (const a of addresses) {
    const problem = addressProblem(a, policy);
    if (problem) return { error: `Target refused: ${host} resolves to ${problem}` };
  }
  return { address: addresses[0]! };
}
