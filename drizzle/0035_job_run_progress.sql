ALTER TABLE "job_runs" ADD COLUMN "progress_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "progress_total" integer;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "progress_unit" text;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "cancel_requested_by" text;