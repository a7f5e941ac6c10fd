// /api/config/*: configuration as code over the API, for CI pipelines (an admin's API token) and `vigil config --url`.
// plan and apply take the file as text with `prune` and `env` (the values of its ${NAME} references); export gives the
// file (secrets as references unless ?withSecrets=true); schema the JSON Schema for editors; managed what files manage.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import type { Db } from "../db/database";
import { forbidden } from "../http/errors";
import { contentResponse, doc } from "../http/openapi";
import type { Logger } from "../log";
import type { TargetPolicy } from "../net/targets";
import { applyConfig } from "./apply";
import { exportConfig } from "./export";
import { planConfig } from "./plan";
import type { ManagedObject } from "./public";
import { configJsonSchema } from "./schema";
import { readState } from "./state";

export interface ConfigRoutesDeps {
  db: Db;
  session: ReturnType<typeof sessions>;
  log: Logger;
  /** The address policy monitors are saved under (--block-private-targets). */
  policy: TargetPolicy;
  /** After an apply wrote something: the running services re-read it (server/import/after-import.ts). */
  onApplied: () => Promise<void>;
}

/** The largest file taken: far above any real configuration, far below what could hurt. */
const MAX_FILE = 5_000_000;

const body = t.Object({
  yaml: t.String({ maxLength: MAX_FILE, error: `yaml must be the file's text (at most ${MAX_FILE} characters)` }),
  prune: t.Optional(t.Boolean({ error: "prune must be true or false" })),
  env: t.Optional(t.Record(t.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }), t.String({ maxLength: 100_000 }), { error: "env must be an object of variable names to text values" })),
});

export function configRoutes({ db, session, log, policy, onApplied }: ConfigRoutesDeps) {
  return new Elysia({ prefix: "/api/config", detail: { tags: ["instance"] } })
    .use(session)
    .post(
      "/plan",
      async ({ body: b }) => {
        const { plan } = await planConfig(db.orm, db.t, b.yaml, { prune: b.prune, env: b.env, policy });
        return { success: true as const, plan };
      },
      // Reads and would write every monitor: admins (an admin's API token needs write).
      { auth: "admin", body, detail: doc("What applying this configuration file would create, change (field by field; drift marked) and, with prune, delete; changes nothing. An invalid file is a 400 listing every problem with its line and field", 400) },
    )
    .post(
      "/apply",
      async ({ body: b, user }) => {
        const { plan, written } = await applyConfig(db, b.yaml, { prune: b.prune, env: b.env, policy });
        if (written) {
          await onApplied();
          log.info("configuration applied", { by: user.id, username: user.username, ...plan.counts });
        }
        return { success: true as const, plan, written };
      },
      { auth: "admin", body, detail: doc("Validate the whole file, then apply its plan in one transaction (nothing when anything is invalid); applying the same file again writes nothing", 400) },
    )
    .get(
      "/export",
      async ({ query, via }) => {
        const withSecrets = query.withSecrets === true;
        // Secrets in clear take a signed-in admin: an admin's API token (even read-only) gets the references only.
        if (withSecrets && via === "token") throw forbidden("Exporting secrets in clear needs a signed-in admin (or vigil config export --with-secrets on the server's database), not an API token");
        const { yaml } = await exportConfig(db.orm, db.t, { withSecrets, policy });
        return new Response(yaml, { headers: { "content-type": "text/yaml; charset=utf-8", "content-disposition": 'attachment; filename="vigil.yaml"', "cache-control": "no-store" } });
      },
      {
        auth: "admin",
        query: t.Object({ withSecrets: t.Optional(t.BooleanString({ error: "withSecrets must be true or false" })) }),
        detail: { ...doc("The monitors, groups, tag colours, channels, status pages and maintenance windows as a configuration file (YAML); secrets as ${ENV} references unless withSecrets=true", 403), responses: { 200: contentResponse("The file", "text/yaml") } },
      },
    )
    // Public: it describes the format (field names and limits the API documents anyway), and editors fetch it without credentials.
    .get("/schema", () => new Response(JSON.stringify(configJsonSchema(), null, 2), { headers: { "content-type": "application/schema+json; charset=utf-8" } }), {
      detail: { ...doc("The JSON Schema (draft 2020-12) of configuration files, for editors"), responses: { 200: contentResponse("The schema", "application/schema+json") } },
    })
    .get(
      "/managed",
      async () => {
        // Most instances have no file: every screen with marks asks, so skip reading (and hashing) every object then.
        const [linked] = await db.orm.select({ id: db.t.configLinks.objectId }).from(db.t.configLinks).limit(1);
        if (!linked) return { success: true as const, managed: [] as ManagedObject[] };
        const state = await readState(db.orm, db.t);
        const managed = state.objects
          .filter((o) => o.link !== null)
          .map((o): ManagedObject => ({ kind: o.kind, key: o.key, objectId: o.objectId, drifted: o.link!.appliedHash !== o.hash }));
        return { success: true as const, managed };
      },
      // Everyone signed in: the UI marks managed objects for whoever may edit them (keys and ids only, nothing secret).
      { auth: "user", detail: doc("The objects configuration files manage, each with its key and whether it changed since the last apply (drift)") },
    );
}
