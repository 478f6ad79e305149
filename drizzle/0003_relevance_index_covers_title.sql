-- The search candidates in title order by judgement come from an index-only scan when the index
-- carries the title vector (drizzle-kit cannot write INCLUDE, so this migration does).
DROP INDEX IF EXISTS "papers_relevance_idx";
--> statement-breakpoint
CREATE INDEX "papers_relevance_idx" ON "papers" USING btree ("relevance" DESC NULLS LAST, "indexed_date" DESC NULLS FIRST, "id") INCLUDE ("title_vector");
