// npm run build: the UI, one executable (dist/vigil) with the UI and the migrations embedded, and the agents it serves
// at /downloads for every release target (dist/agents), each with its sha256 (the Linux ones also with an .xz copy,
// the lightest download); prints what it built with sizes.
// `--target bun-linux-arm64` (etc.) cross-compiles; the runtime for that target comes from the npm registry.
import { parseArgs } from "node:util";
import { buildAgents, describeFile, exitOnSignals, RELEASE_TARGETS, summary, type Built } from "./build-agents";
import { buildUi } from "./build-ui";
import { SERVER_RUNTIME_ARGS } from "./server-runtime";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    target: { type: "string" },
    outfile: { type: "string", default: "dist/vigil" },
    // A separate UI output (with --outfile) lets two builds run side by side without overwriting each other. Its last
    // folder must be named "ui" (dist/<name>/ui): the executable finds its embedded UI under that name.
    "ui-outdir": { type: "string", default: "dist/ui" },
    "no-agents": { type: "boolean" },
  },
});

if (values["ui-outdir"]!.replace(/\/+$/, "").split("/").pop() !== "ui") {
  console.error(`--ui-outdir must end in a folder named ui (e.g. dist/mine/ui), not ${values["ui-outdir"]}`);
  process.exit(2);
}
exitOnSignals();
const started = performance.now();
await buildUi({ outdir: values["ui-outdir"] });
const args = [
  "build",
  "--compile",
  "server/main.ts",
  "--asset", values["ui-outdir"]!,
  "--asset", "server/db/migrations",
  "--asset", "server/db/migrations-pg",
  "--outfile", values.outfile!,
  // Whitespace and syntax only: renamed identifiers break Elysia's reading of handler sources (it parses the query
  // only for handlers it sees use it), and the executable then skipped query bounds (`?limit=-5`, `?ping=-1`
  // accepted). server/http/shipped-validation.test.ts checks the built executable.
  "--minify-whitespace",
  "--minify-syntax",
  "--bytecode",
  "--format=esm",
  // Production mode everywhere (Elysia reads it at load; see server/production.ts), whatever the bundler assumes.
  "--define", 'process.env.NODE_ENV="production"',
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  // The runtime flags the server is measured with (scripts/server-runtime.ts).
  `--compile-exec-argv=${SERVER_RUNTIME_ARGS.join(" ")}`,
  ...(values.target ? [`--target=${values.target}`] : []),
];
const proc = Bun.spawnSync([process.execPath, ...args], { stdout: "inherit", stderr: "inherit" });
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1);
const server = await describeFile(values.outfile!);
await Bun.write(`${values.outfile}.sha256`, `${server.sha256}  ${values.outfile!.split("/").pop()}\n`);
const built: Built[] = [server, ...(values["no-agents"] ? [] : await buildAgents(RELEASE_TARGETS))];
console.log(`${summary(built)}\nbuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`);
