-- check_results keyed (monitor_id, time): the key replaces the id column and the (monitor_id, time) index. Two checks
-- of a monitor that started in the same millisecond would collide on the key: each monitor's checks, in (time, id)
-- order, get times made strictly increasing by the least shift (new = rn + running max of (time - rn)), which leaves
-- distinct times as they are and loses no row. Edited by hand (drizzle-kit added the key before dropping id's).
UPDATE "check_results" c SET "time" = d.nt
  FROM (SELECT "id", rn + max("time" - rn) OVER (PARTITION BY "monitor_id" ORDER BY "time", "id" ROWS UNBOUNDED PRECEDING) AS nt
        FROM (SELECT "id", "monitor_id", "time", row_number() OVER (PARTITION BY "monitor_id" ORDER BY "time", "id") AS rn FROM "check_results") r) d
  WHERE c."id" = d."id" AND c."time" <> d.nt;--> statement-breakpoint
ALTER TABLE "check_results" DROP COLUMN "id";--> statement-breakpoint
DROP INDEX "check_results_monitor_time";--> statement-breakpoint
ALTER TABLE "check_results" ADD CONSTRAINT "check_results_monitor_id_time_pk" PRIMARY KEY("monitor_id","time");
