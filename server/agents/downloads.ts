import { Elysia } from "elysia";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { notFound } from "../http/errors";
import { doc } from "../http/openapi";
import { serverUrl } from "../http/server-url";
import { acceptsGzip } from "../http/compression";
import installScript from "./install.sh" with { type: "text" };

/**
 * Where `npm run build` / `npm run build:agents` put the agent binaries: beside the executable
 * (dist/vigil → dist/agents), or dist/agents in a source checkout.
 */
export function defaultAgentsDir(): string {
  return Bun.isStandaloneExecutable ? join(dirname(process.execPath), "agents") : resolve("dist/agents");
}

/** A build (`.exe` on Windows), its xz copy (Linux), or the sha256 list of either. */
const FILE_NAME = /^vigil-agent-(?<os>linux|darwin|windows)-(?<arch>x64|arm64)(?:\.exe)?(?<xz>\.xz)?(?<sha>\.sha256)?$/;

/** A file under /downloads/ and its size. */
export interface DownloadFile {
  file: string;
  bytes: number;
}

export interface AgentTarget extends DownloadFile {
  os: "linux" | "darwin" | "windows";
  arch: "x64" | "arm64";
  /** The same build compressed with xz (Linux builds; null until the build has written it): a third lighter than gzip. */
  xz: DownloadFile | null;
}

/** A file of `dir` with a checksum beside it, or null. */
function withChecksum(dir: string, file: string): DownloadFile | null {
  const path = join(dir, file);
  return existsSync(path) && existsSync(`${path}.sha256`) ? { file, bytes: statSync(path).size } : null;
}

/** The agent builds this server can hand out (each with its checksum beside it), so the guide offers only those. */
export function availableTargets(dir: string): AgentTarget[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((file) => ({ file, name: FILE_NAME.exec(file)?.groups }))
    .filter(({ name }) => name && !name.xz && !name.sha)
    .flatMap(({ file, name }) => {
      const build = withChecksum(dir, file);
      if (!build) return [];
      const xz = withChecksum(dir, `${file}.xz`);
      return [{ os: name!.os as AgentTarget["os"], arch: name!.arch as AgentTarget["arch"], ...build, xz }];
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * `GET /api/agents/targets` (anyone, like the downloads): the builds on offer.
 * `/downloads/vigil-agent-<os>-<arch>` (gzip on the wire when the client accepts it, from the `.gz` the build wrote),
 * `<name>.xz` as is, `<name>.sha256`, and `/install.sh` with this server's address filled in.
 */
export function downloadRoutes(opts: { dir: string; publicUrl?: string; trustProxy: number }) {
  return new Elysia({ name: "downloads" })
    .get("/api/agents/targets", () => ({ success: true, targets: availableTargets(opts.dir) }), {
      detail: { tags: ["agents"], ...doc("The agent builds this server offers for download") },
    })
    // /install.sh and /downloads are files for agents and installers, not REST calls: left out of the API docs.
    .get("/install.sh", ({ request }) => {
      const server = serverUrl(request, opts.publicUrl, opts.trustProxy);
      // The address is pasted into a shell script: allow only what a URL needs.
      if (!/^https?:\/\/[A-Za-z0-9.\-:[\]]+(\/[A-Za-z0-9._~\/-]*)?$/.test(server)) {
        return new Response("# Cannot build an install script for this address; set --public-url.\nexit 1\n", { status: 400 });
      }
      return new Response(installScript.replaceAll("__SERVER__", server), {
        headers: { "content-type": "text/x-shellscript; charset=utf-8", "cache-control": "no-cache" },
      });
    }, { detail: { hide: true } })
    .get("/downloads/:file", ({ params, request }) => {
      const name = FILE_NAME.exec(params.file)?.groups;
      const path = join(opts.dir, params.file);
      if (!name || !existsSync(path)) {
        throw notFound("DOWNLOAD_NOT_FOUND", `No agent build named ${params.file} on this server: run \`npm run build:agents\``);
      }
      if (name.sha) {
        return new Response(readFileSync(path, "utf8"), { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" } });
      }
      const headers: Record<string, string> = {
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename="${params.file}"`,
        "cache-control": "no-cache",
        vary: "accept-encoding",
      };
      if (name.xz) return new Response(Bun.file(path), { headers: { ...headers, "content-type": "application/x-xz" } });
      const gz = `${path}.gz`;
      if (acceptsGzip(request) && existsSync(gz)) {
        return new Response(Bun.file(gz), { headers: { ...headers, "content-encoding": "gzip" } });
      }
      return new Response(Bun.file(path), { headers });
    }, { detail: { hide: true } });
}
