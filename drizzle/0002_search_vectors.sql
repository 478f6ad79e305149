ALTER TABLE "papers" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(geroscope_tsvector(title), 'A')
    || setweight(geroscope_tsvector(geroscope_join(keywords) || ' ' || jsonb_path_query_array(mesh_headings, '$[*].descriptor')::text), 'B')
    || setweight(geroscope_tsvector(abstract), 'C')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "title_vector" "tsvector" GENERATED ALWAYS AS (geroscope_tsvector(title)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "papers_search_idx" ON "papers" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "papers_title_search_idx" ON "papers" USING gin ("title_vector");--> statement-breakpoint
CREATE INDEX "papers_relevance_idx" ON "papers" USING btree ("relevance" DESC NULLS LAST,"indexed_date" DESC NULLS FIRST,"id");