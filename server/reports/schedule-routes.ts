// /api/report-schedules: reports mailed every month (server/reports/schedules.ts). Guarded as the notification
// channels they mail through: every signed-in role reads them, editors and admins change them and send them.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { HttpError } from "../http/errors";
import { idParams } from "../http/ids";
import { doc } from "../http/openapi";
import type { NotificationLanguage } from "../notifications/public";
import { LANGUAGES, TARGET_KINDS, type ReportScheduleService } from "./schedules";

const fields = {
  name: t.String({ maxLength: 200, error: "name must be text of 1-100 characters" }),
  targetKind: t.Union(TARGET_KINDS.map((k) => t.Literal(k)), { error: `targetKind must be one of ${TARGET_KINDS.join(", ")}` }),
  targetRef: t.String({ minLength: 1, maxLength: 200, error: "targetRef must be a monitor or group id, a tag or a status page slug" }),
  zone: t.String({ minLength: 1, maxLength: 64, error: "zone must be an IANA time zone (e.g. Europe/Berlin or UTC)" }),
  language: t.Union(LANGUAGES.map((l) => t.Literal(l)), { error: "language must be zh-CN or en-US" }),
  channelId: t.Integer({ minimum: 1, error: "channelId must be the id of an SMTP notification channel" }),
  recipients: t.Array(t.String({ maxLength: 254, error: "recipients must be e-mail addresses" }), { maxItems: 200, error: "recipients must be a list of 1-50 e-mail addresses" }),
  enabled: t.Boolean({ error: "enabled must be true or false" }),
};

const createBody = t.Object({ ...fields, language: t.Optional(fields.language), enabled: t.Optional(fields.enabled) });
const updateBody = t.Partial(t.Object(fields));

export function reportScheduleRoutes(deps: {
  schedules: ReportScheduleService;
  session: ReturnType<typeof sessions>;
  /** The language a schedule mails in when the request names none (the notifications'). */
  defaultLanguage: () => Promise<NotificationLanguage>;
}) {
  const { schedules } = deps;
  return new Elysia({ prefix: "/api/report-schedules", detail: { tags: ["reports"] } })
    .use(deps.session)
    .get("/", async () => ({ success: true, schedules: await schedules.list() }), { auth: "user", detail: doc("The reports mailed every month") })
    .post(
      "/",
      async ({ body, set }) => {
        const schedule = await schedules.create({ ...body, language: body.language ?? (await deps.defaultLanguage()) });
        set.status = 201;
        return { success: true, schedule };
      },
      { auth: "user", body: createBody, detail: doc("Mail a report every month: the previous calendar month's, in the zone, through an SMTP channel") },
    )
    .get("/:id", async ({ params }) => ({ success: true, schedule: await schedules.get(params.id) }), { auth: "user", params: idParams("report schedule"), detail: doc("A monthly report mail") })
    .put(
      "/:id",
      async ({ params, body }) => ({ success: true, schedule: await schedules.update(params.id, body) }),
      { auth: "user", params: idParams("report schedule"), body: updateBody, detail: doc("Change a monthly report mail (any of its fields)") },
    )
    .delete(
      "/:id",
      async ({ params }) => {
        await schedules.remove(params.id);
        return { success: true, message: "Report schedule deleted" };
      },
      { auth: "user", params: idParams("report schedule"), detail: doc("Stop mailing a report") },
    )
    .post(
      "/:id/send",
      async ({ params }) => {
        const result = await schedules.sendNow(params.id);
        // The mail server's own verdict, as a channel's test send answers it.
        if (!result.ok) throw new HttpError(502, "PROVIDER_ERROR", result.error);
        return { success: true, period: result.period, message: "Report sent" };
      },
      { auth: "user", params: idParams("report schedule"), detail: doc("Mail last month's report now, to try a schedule (the monthly mail is not affected)", 502) },
    );
}
