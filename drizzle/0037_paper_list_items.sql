ALTER TABLE "paper_documents" ADD COLUMN "item" text;--> statement-breakpoint
ALTER TABLE "paper_documents" ADD COLUMN "story_item" text;--> statement-breakpoint
-- A page reads 25 to 100 items, each compressed in its row: lz4 decompresses them several times faster than pglz
-- (docs/benchmarks.md, issue 39). Where the server is built without lz4 (the embedded one), they stay pglz.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE paper_documents ALTER COLUMN item SET COMPRESSION lz4, ALTER COLUMN story_item SET COMPRESSION lz4;
  END IF;
END $$;--> statement-breakpoint
-- The list items (src/documents/paper-items.ts) share the body's row, generation and staleness: every trigger of
-- drizzle/0034 goes through these three functions, which now make the items NULL with the body, so an item is never
-- fresher or staler than its body. A /papers item shows the paper and its story's headline and dek, a /stories item
-- the story and its paper: rows those triggers already cover.
CREATE OR REPLACE FUNCTION geroscope_documents_stale(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE paper_documents d SET body = NULL, item = NULL, story_item = NULL, generation = d.generation + 1
    WHERE d.paper_id = ANY (ids) AND NOT (d.body IS NULL AND d.xmin = pg_current_xact_id()::xid);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION geroscope_documents_papers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO paper_documents (paper_id) SELECT n.id FROM new_rows n ORDER BY n.id
      ON CONFLICT (paper_id) DO UPDATE SET body = NULL, item = NULL, story_item = NULL,
        generation = paper_documents.generation + 1;
    RETURN NULL;
  END IF;
  SELECT array_agg(n.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.source, n.doi, n.title, n.authors, n.journal, n.published_date, n.indexed_date, n.preprint, n.publication_types,
           n.url, n.abstract, n.abstract_license, n.relevance, n.relevance_confidence, n.newsworthiness, n.study_type,
           n.study_type_confidence, n.topic, n.topic_confidence, n.promotional, n.judgement_model, n.judgement_prompt_version,
           n.judged_at, n.extracted_at)
      IS DISTINCT FROM
          (o.source, o.doi, o.title, o.authors, o.journal, o.published_date, o.indexed_date, o.preprint, o.publication_types,
           o.url, o.abstract, o.abstract_license, o.relevance, o.relevance_confidence, o.newsworthiness, o.study_type,
           o.study_type_confidence, o.topic, o.topic_confidence, o.promotional, o.judgement_model, o.judgement_prompt_version,
           o.judged_at, o.extracted_at);
  IF ids IS NOT NULL THEN PERFORM geroscope_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION geroscope_documents_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE paper_documents SET body = NULL, item = NULL, story_item = NULL, generation = generation + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Bodies stored before the items existed go stale with them, for the refresher (or `cli documents rebuild`) to write
-- all three.
UPDATE paper_documents SET body = NULL, generation = generation + 1 WHERE body IS NOT NULL;
