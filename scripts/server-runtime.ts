// Bun's own flags the server runs with, wherever it runs: baked into the executable (scripts/build.ts,
// --compile-exec-argv), given by npm start (package.json's "start", kept equal by scripts/build.test.ts) and by the
// benchmarks (scripts/bench/proc.ts), so what is measured is what ships.
//
// --smol: JavaScriptCore's smaller-heap settings (collect sooner, grow less). At 100 000 monitors the server's RSS at
// the end of a 2-minute window went from 278–286 MB to 246–251 MB at the same CPU (11.7–11.8 % → 11.8–12.7 % of a
// core), and per-check CPU at 50 checks/s stayed where it was (1.38× the bare floor against 1.39×). The peak moves
// with when the collector catches up either way (286–349 MB with it, 320–335 without): docs/benchmarks.md, "Per-check cost
// against the runtime's floor".
export const SERVER_RUNTIME_ARGS = ["--smol"];
