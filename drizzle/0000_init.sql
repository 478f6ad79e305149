CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"membership" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"tier" text NOT NULL,
	"secret_hash" text NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "article_analyses" (
	"article_id" integer PRIMARY KEY NOT NULL,
	"summary" text NOT NULL,
	"key_points" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"entities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"claims" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"model" text NOT NULL,
	"prompt_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_id" integer NOT NULL,
	"guid" text,
	"link" text,
	"doi" text,
	"title" text NOT NULL,
	"summary" text,
	"author" text,
	"published_at" timestamp with time zone,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paper_id" text,
	"analysed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "briefs" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"article_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"model" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"paper_id" text NOT NULL,
	"subject_text" text NOT NULL,
	"subject_entity_id" integer,
	"relation" text NOT NULL,
	"object_text" text NOT NULL,
	"object_entity_id" integer,
	"organism" text,
	"context" jsonb,
	"direction" text,
	"magnitude" text,
	"evidence" text,
	"confidence" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entities" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"ids" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"paper_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text DEFAULT 'running' NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "job_state" (
	"name" text PRIMARY KEY NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_entities" (
	"paper_id" text NOT NULL,
	"entity_id" integer NOT NULL,
	"role" text NOT NULL,
	"detail" jsonb,
	"indexed_date" date NOT NULL,
	CONSTRAINT "paper_entities_paper_id_entity_id_role_pk" PRIMARY KEY("paper_id","entity_id","role")
);
--> statement-breakpoint
CREATE TABLE "papers" (
	"id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"doi" text,
	"title" text NOT NULL,
	"authors" text NOT NULL,
	"journal" text NOT NULL,
	"published_date" date,
	"indexed_date" date NOT NULL,
	"preprint" boolean DEFAULT false NOT NULL,
	"publication_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"url" text NOT NULL,
	"abstract" text,
	"abstract_license" text,
	"mesh_headings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"chemicals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"relevance" double precision,
	"relevance_confidence" double precision,
	"newsworthiness" double precision,
	"study_type" text,
	"study_type_confidence" double precision,
	"topic" text,
	"topic_confidence" double precision,
	"promotional" double precision,
	"judgement_model" text,
	"judgement_prompt_version" text,
	"judged_at" timestamp with time zone,
	"extracted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompt_versions" (
	"prompt_id" text NOT NULL,
	"version" integer NOT NULL,
	"body" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prompt_versions_prompt_id_version_pk" PRIMARY KEY("prompt_id","version")
);
--> statement-breakpoint
CREATE TABLE "prompts" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"current_version" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"bucket" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limit_counters_bucket_window_window_start_pk" PRIMARY KEY("bucket","window","window_start")
);
--> statement-breakpoint
CREATE TABLE "rss_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"etag" text,
	"last_modified" text,
	"last_fetched_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rss_sources_url_unique" UNIQUE("url")
);
--> statement-breakpoint
CREATE TABLE "search_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"paper_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stories" (
	"paper_id" text PRIMARY KEY NOT NULL,
	"headline" text NOT NULL,
	"dek" text NOT NULL,
	"body" text NOT NULL,
	"why_it_matters" text NOT NULL,
	"caveats" text NOT NULL,
	"support" double precision,
	"model" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upvotes" (
	"paper_id" text NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upvotes_paper_id_account_id_pk" PRIMARY KEY("paper_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_analyses" ADD CONSTRAINT "article_analyses_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_source_id_rss_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."rss_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_subject_entity_id_entities_id_fk" FOREIGN KEY ("subject_entity_id") REFERENCES "public"."entities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_object_entity_id_entities_id_fk" FOREIGN KEY ("object_entity_id") REFERENCES "public"."entities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_entities" ADD CONSTRAINT "paper_entities_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_entities" ADD CONSTRAINT "paper_entities_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_versions" ADD CONSTRAINT "prompt_versions_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_versions" ADD CONSTRAINT "prompt_versions_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upvotes" ADD CONSTRAINT "upvotes_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upvotes" ADD CONSTRAINT "upvotes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_username_idx" ON "accounts" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "articles_guid_idx" ON "articles" USING btree ("guid") WHERE "articles"."guid" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "articles_link_idx" ON "articles" USING btree ("link") WHERE "articles"."link" is not null;--> statement-breakpoint
CREATE INDEX "articles_doi_idx" ON "articles" USING btree ("doi");--> statement-breakpoint
CREATE INDEX "articles_fetched_idx" ON "articles" USING btree ("fetched_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "briefs_created_idx" ON "briefs" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "claims_created_idx" ON "claims" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "claims_paper_idx" ON "claims" USING btree ("paper_id");--> statement-breakpoint
CREATE INDEX "claims_subject_entity_idx" ON "claims" USING btree ("subject_entity_id");--> statement-breakpoint
CREATE INDEX "claims_object_entity_idx" ON "claims" USING btree ("object_entity_id");--> statement-breakpoint
CREATE INDEX "claims_relation_idx" ON "claims" USING btree ("relation","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "entities_type_key_idx" ON "entities" USING btree ("type","key");--> statement-breakpoint
CREATE INDEX "entities_rank_idx" ON "entities" USING btree ("paper_count" DESC NULLS FIRST,"type","key");--> statement-breakpoint
CREATE INDEX "entities_type_rank_idx" ON "entities" USING btree ("type","paper_count" DESC NULLS FIRST,"key");--> statement-breakpoint
CREATE INDEX "job_runs_job_idx" ON "job_runs" USING btree ("job","started_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "paper_entities_entity_idx" ON "paper_entities" USING btree ("entity_id","indexed_date" DESC NULLS FIRST,"paper_id");--> statement-breakpoint
CREATE INDEX "papers_indexed_idx" ON "papers" USING btree ("indexed_date" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "papers_topic_indexed_idx" ON "papers" USING btree ("topic","indexed_date" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "papers_study_type_indexed_idx" ON "papers" USING btree ("study_type","indexed_date" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "papers_preprint_indexed_idx" ON "papers" USING btree ("preprint","indexed_date" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "papers_doi_idx" ON "papers" USING btree ("doi");--> statement-breakpoint
CREATE INDEX "sessions_account_idx" ON "sessions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "stories_published_idx" ON "stories" USING btree ("published_at" DESC NULLS FIRST,"paper_id");