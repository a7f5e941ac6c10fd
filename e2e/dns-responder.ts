// Runs server/monitors/types/dns/responder.ts (it needs Bun's UDP socket) for the Node-run browser tests: started as
// `bun e2e/dns-responder.ts '<zone JSON>'`, it prints `port <n>` once listening and stops when its stdin closes.
import { startDnsResponder, type DnsZone } from "../server/monitors/types/dns/responder";

const responder = await startDnsResponder(JSON.parse(process.argv[2] ?? "{}") as DnsZone);
console.log(`port ${responder.port}`);
process.stdin.resume();
process.stdin.on("end", () => {
  responder.stop();
  process.exit(0);
});
