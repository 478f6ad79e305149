CREATE TABLE "withdrawn_papers" (
	"id" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"withdrawn_at" timestamp with time zone DEFAULT now() NOT NULL
);
