CREATE TABLE "contradiction_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"subject_key" text NOT NULL,
	"subject_label" text NOT NULL,
	"subject_entity_id" integer,
	"object_key" text NOT NULL,
	"object_label" text NOT NULL,
	"object_entity_id" integer,
	"score" double precision NOT NULL,
	"papers_increase" integer NOT NULL,
	"papers_decrease" integer NOT NULL,
	"claims_increase" integer NOT NULL,
	"claims_decrease" integer NOT NULL,
	"organism_keys" text[] NOT NULL,
	"organisms" text[] NOT NULL,
	"topics" text[] NOT NULL,
	"entity_keys" text[] NOT NULL,
	"latest_date" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contradiction_pairs" (
	"group_id" text NOT NULL,
	"score" double precision NOT NULL,
	"organism_key" text NOT NULL,
	"organism" text NOT NULL,
	"conditions" jsonb NOT NULL,
	"increase_claim_id" integer NOT NULL,
	"decrease_claim_id" integer NOT NULL,
	"increase_weight" double precision NOT NULL,
	"decrease_weight" double precision NOT NULL,
	"topics" text[] NOT NULL,
	"latest_date" date NOT NULL,
	CONSTRAINT "contradiction_pairs_group_id_increase_claim_id_decrease_claim_id_pk" PRIMARY KEY("group_id","increase_claim_id","decrease_claim_id")
);
--> statement-breakpoint
CREATE TABLE "knowledge_gaps" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"score" double precision NOT NULL,
	"subject_key" text,
	"subject_label" text,
	"subject_entity_id" integer,
	"object_key" text,
	"object_label" text,
	"object_entity_id" integer,
	"counts" jsonb NOT NULL,
	"details" jsonb NOT NULL,
	"paper_ids" text[] NOT NULL,
	"topics" text[] NOT NULL,
	"entity_keys" text[] NOT NULL,
	"contradiction_id" text
);
--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "summary" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "sections" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "citations" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "window_start" date;--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "window_end" date;--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "filters" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "paper_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "counts" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "prompt_version" text;--> statement-breakpoint
CREATE INDEX "contradiction_groups_rank_idx" ON "contradiction_groups" USING btree ("score" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "contradiction_pairs_rank_idx" ON "contradiction_pairs" USING btree ("group_id","score" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "knowledge_gaps_rank_idx" ON "knowledge_gaps" USING btree ("score" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "knowledge_gaps_kind_rank_idx" ON "knowledge_gaps" USING btree ("kind","score" DESC NULLS LAST,"id" DESC NULLS LAST);