CREATE TABLE "held_stories" (
	"paper_id" text PRIMARY KEY NOT NULL,
	"headline" text NOT NULL,
	"dek" text NOT NULL,
	"body" text NOT NULL,
	"why_it_matters" text NOT NULL,
	"caveats" text NOT NULL,
	"support" double precision NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"model" text NOT NULL,
	"written_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "held_stories" ADD CONSTRAINT "held_stories_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "held_stories_written_idx" ON "held_stories" USING btree ("written_at" DESC NULLS FIRST,"paper_id");--> statement-breakpoint
-- Stories already published that the support check scored 1 or less wait with the operators from now on; their
-- removal from stories is recorded in the change feed like any other.
INSERT INTO "held_stories" ("paper_id", "headline", "dek", "body", "why_it_matters", "caveats", "support", "problems", "model", "written_at")
  SELECT "paper_id", "headline", "dek", "body", "why_it_matters", "caveats", "support", '["scored 1 or less before stories were held back (issue 35)"]'::jsonb, "model", "published_at"
  FROM "stories" WHERE "support" <= 1;
--> statement-breakpoint
DELETE FROM "stories" WHERE "support" <= 1;
