// Imported first by main.ts, for its side effect alone: the process starts itself again with the runtime settings it
// lacks (server/runtime-env.ts) before anything else loads. Nothing else imports it: tests and benchmarks read the
// settings from runtime-env.ts without restarting themselves.
import { reexecWithRuntimeEnv } from "./runtime-env";

reexecWithRuntimeEnv();
