import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { test as base } from "./helpers";

// A local webhook receiver for the notification screens' tests: what the channels send is read back from it.

export interface Hook {
  url(path: string): string;
  /** The requests received, oldest first. */
  received: { path: string; headers: IncomingHttpHeaders; body: string }[];
}

/** A local webhook receiver: 200 for every path but /fail*, which answers 500. */
export const test = base.extend<{ hook: Hook }>({
  hook: async ({}, use) => {
    const received: Hook["received"] = [];
    const server: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const path = (req.url ?? "/").split("?")[0];
        received.push({ path, headers: req.headers, body });
        const fail = path.startsWith("/fail");
        res.writeHead(fail ? 500 : 200, { "content-type": "text/plain" });
        res.end(fail ? "receiver broken" : "ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await use({ url: (path) => `http://127.0.0.1:${port}${path}`, received });
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
});
