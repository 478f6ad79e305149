-- Editors in the loop (issue 34): the version history of judgements, and the review queue's indexes.
-- The audit sample: a paper is in it when the first 32 bits of the MD5 of its id are a multiple of 50
-- (about 2% of ids). A hash of the id alone, so the sample is the same on every page, after every
-- restart and on every server; IMMUTABLE, as an index predicate must be (md5 and the casts are).
CREATE FUNCTION geroscope_review_audit(id text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT ('x' || substr(md5(id), 1, 8))::bit(32)::int % 50 = 0 $$;--> statement-breakpoint
CREATE TABLE "judgement_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"paper_id" text NOT NULL,
	"relevance" double precision NOT NULL,
	"relevance_confidence" double precision,
	"study_type" text,
	"study_type_confidence" double precision,
	"topic" text,
	"topic_confidence" double precision,
	"newsworthiness" double precision,
	"model" text NOT NULL,
	"prompt_version" text,
	"judged_at" timestamp with time zone NOT NULL,
	"note" text,
	"account_id" integer
);
--> statement-breakpoint
ALTER TABLE "judgement_versions" ADD CONSTRAINT "judgement_versions_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judgement_versions" ADD CONSTRAINT "judgement_versions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "judgement_versions_paper_idx" ON "judgement_versions" USING btree ("paper_id","id");--> statement-breakpoint
CREATE INDEX "papers_review_queue_idx" ON "papers" USING btree (least(coalesce("relevance_confidence", 0), coalesce("study_type_confidence", 0), coalesce("topic_confidence", 0)),"id") WHERE "papers"."judged_at" is not null and "papers"."relevance" is not null and "papers"."judgement_model" is distinct from 'editor';--> statement-breakpoint
CREATE INDEX "papers_review_audit_idx" ON "papers" USING btree ("id") WHERE "papers"."judged_at" is not null and "papers"."relevance" is not null and "papers"."judgement_model" is distinct from 'editor' and geroscope_review_audit("papers"."id");
