// bun scripts/config-schema.ts: writes docs/config-schema.json, the JSON Schema of configuration files, from the same
// schemas the server validates with (GET /api/config/schema serves it; a test checks the two agree).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { configJsonSchema } from "../server/config-file/schema";

writeFileSync(join(import.meta.dir, "../docs/config-schema.json"), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
