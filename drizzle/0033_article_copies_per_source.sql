DROP INDEX "articles_guid_idx";--> statement-breakpoint
DROP INDEX "articles_link_idx";--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "copy_of" integer;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_copy_of_articles_id_fk" FOREIGN KEY ("copy_of") REFERENCES "public"."articles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "articles_guid_source_idx" ON "articles" USING btree ("guid","source_id") WHERE "articles"."guid" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "articles_link_source_idx" ON "articles" USING btree ("link","source_id") WHERE "articles"."link" is not null;--> statement-breakpoint
CREATE INDEX "articles_copy_of_idx" ON "articles" USING btree ("copy_of");--> statement-breakpoint
-- Articles stored before were unique by guid and by link across all sources, so none is a copy by those; a DOI that
-- two sources stored (scrapes racing) makes the later row a copy of the first (as src/ingest/rss/store.ts links them).
UPDATE "articles" SET "copy_of" = m."first"
  FROM (
    SELECT a."id", (SELECT min(b."id") FROM "articles" b
        WHERE b."doi" = a."doi" AND b."source_id" <> a."source_id" AND b."id" < a."id") AS "first"
      FROM "articles" a WHERE a."doi" IS NOT NULL
  ) m
  WHERE "articles"."id" = m."id" AND m."first" IS NOT NULL;
--> statement-breakpoint
-- Runs recorded "ok" although they went on past failures (their counts' failed and *_failed) are partial, with the
-- line src/jobs/job-runs.ts writes for such a run now.
UPDATE "job_runs" r SET "outcome" = 'partial',
    "error" = 'the run went on past ' || f.n || CASE WHEN f.n = 1 THEN ' failure (' ELSE ' failures (' END || f.which || ')'
  FROM (
    SELECT j."id", sum((c.value)::text::numeric) AS n,
        string_agg(c.key || ' ' || (c.value)::text, ', ' ORDER BY length(c.key), c.key) AS which
      FROM "job_runs" j, jsonb_each(j."counts") c
      WHERE j."outcome" = 'ok' AND (c.key = 'failed' OR c.key LIKE '%\_failed') AND jsonb_typeof(c.value) = 'number'
        AND (c.value)::text::numeric > 0
      GROUP BY j."id"
  ) f
  WHERE r."id" = f."id";
