CREATE TABLE "paper_documents" (
	"paper_id" text PRIMARY KEY NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"body" text
);
--> statement-breakpoint
ALTER TABLE "paper_documents" ADD CONSTRAINT "paper_documents_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paper_documents_stale_idx" ON "paper_documents" USING btree ("paper_id") WHERE body is null;--> statement-breakpoint
-- Stored documents (issue 39, src/documents/): every change to what a paper's document shows makes
-- its stored body stale (NULL) and bumps its generation, in the writing transaction itself, so a body
-- is either right or absent whatever crashes when; the refresher writes a body only under the
-- generation it read the rows with. Triggers, so every writer (bulk seed COPY, harvest, analysis,
-- corrections, admin, a psql session) is covered; statement-level with transition tables, as the
-- change feed's (drizzle/0014), so a bulk statement costs one set-based update.
CREATE FUNCTION geroscope_documents_stale(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- An index scan of = ANY takes the rows in key order, so two writers lock overlapping sets in one order.
  -- A row this transaction already made stale (or inserted) is left alone: no refresher can hold a generation read
  -- after that write, which is not committed yet. So a bulk load's or an analysis's later statements (stories,
  -- claims, entity links of the papers just written) cost no second row version. (In a subtransaction xmin is the
  -- subtransaction's id and the row is bumped again: harmless.)
  UPDATE paper_documents d SET body = NULL, generation = d.generation + 1
    WHERE d.paper_id = ANY (ids) AND NOT (d.body IS NULL AND d.xmin = pg_current_xact_id()::xid);
END $$;
--> statement-breakpoint
CREATE FUNCTION geroscope_documents_papers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO paper_documents (paper_id) SELECT n.id FROM new_rows n ORDER BY n.id
      ON CONFLICT (paper_id) DO UPDATE SET body = NULL, generation = paper_documents.generation + 1;
    RETURN NULL;
  END IF;
  -- Only what the document shows (a harvest re-fetch that changes only MeSH, keywords or updated_at is no change).
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
-- stories, upvotes, paper_entities and claims: the papers of the rows written (a deleted paper's rows
-- go by ON DELETE CASCADE with its document row, and the update then finds nothing).
CREATE FUNCTION geroscope_documents_parts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT n.paper_id) INTO ids FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT o.paper_id) INTO ids FROM old_rows o;
  ELSE
    SELECT array_agg(DISTINCT p) INTO ids FROM (SELECT n.paper_id AS p FROM new_rows n UNION SELECT o.paper_id FROM old_rows o) changed;
  END IF;
  IF ids IS NOT NULL THEN PERFORM geroscope_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A document shows its entities' type, key, name and ids, and its claims' sides' type, key and name;
-- the minutely paper_count refresh changes none of them and marks nothing.
CREATE FUNCTION geroscope_documents_entities() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE renamed integer[]; ids text[];
BEGIN
  SELECT array_agg(n.id) INTO renamed FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.type, n.key, n.name, n.ids) IS DISTINCT FROM (o.type, o.key, o.name, o.ids);
  IF renamed IS NULL THEN RETURN NULL; END IF;
  SELECT array_agg(DISTINCT p) INTO ids FROM (
    SELECT pe.paper_id AS p FROM paper_entities pe WHERE pe.entity_id = ANY (renamed)
    UNION SELECT c.paper_id FROM claims c WHERE c.subject_entity_id = ANY (renamed)
    UNION SELECT c.paper_id FROM claims c WHERE c.object_entity_id = ANY (renamed)) marked;
  IF ids IS NOT NULL THEN PERFORM geroscope_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TRUNCATE has no transition table: every document goes stale.
CREATE FUNCTION geroscope_documents_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE paper_documents SET body = NULL, generation = generation + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER papers_documents_insert AFTER INSERT ON papers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_papers();
--> statement-breakpoint
CREATE TRIGGER papers_documents_update AFTER UPDATE ON papers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_papers();
--> statement-breakpoint
CREATE TRIGGER stories_documents_insert AFTER INSERT ON stories REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER stories_documents_update AFTER UPDATE ON stories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER stories_documents_delete AFTER DELETE ON stories REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER stories_documents_truncate AFTER TRUNCATE ON stories FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_truncated();
--> statement-breakpoint
CREATE TRIGGER upvotes_documents_insert AFTER INSERT ON upvotes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER upvotes_documents_update AFTER UPDATE ON upvotes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER upvotes_documents_delete AFTER DELETE ON upvotes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER upvotes_documents_truncate AFTER TRUNCATE ON upvotes FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_truncated();
--> statement-breakpoint
CREATE TRIGGER paper_entities_documents_insert AFTER INSERT ON paper_entities REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER paper_entities_documents_update AFTER UPDATE ON paper_entities REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER paper_entities_documents_delete AFTER DELETE ON paper_entities REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER paper_entities_documents_truncate AFTER TRUNCATE ON paper_entities FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_truncated();
--> statement-breakpoint
CREATE TRIGGER claims_documents_insert AFTER INSERT ON claims REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER claims_documents_update AFTER UPDATE ON claims REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER claims_documents_delete AFTER DELETE ON claims REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_parts();
--> statement-breakpoint
CREATE TRIGGER claims_documents_truncate AFTER TRUNCATE ON claims FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_truncated();
--> statement-breakpoint
CREATE TRIGGER entities_documents_update AFTER UPDATE ON entities REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_entities();
--> statement-breakpoint
CREATE TRIGGER entities_documents_truncate AFTER TRUNCATE ON entities FOR EACH STATEMENT EXECUTE FUNCTION geroscope_documents_truncated();
--> statement-breakpoint
-- ALWAYS: the bulk loader runs with session_replication_role = replica (src/seed/bulk-load.ts), which silences ordinary triggers.
ALTER TABLE papers ENABLE ALWAYS TRIGGER papers_documents_insert;
--> statement-breakpoint
ALTER TABLE papers ENABLE ALWAYS TRIGGER papers_documents_update;
--> statement-breakpoint
ALTER TABLE stories ENABLE ALWAYS TRIGGER stories_documents_insert;
--> statement-breakpoint
ALTER TABLE stories ENABLE ALWAYS TRIGGER stories_documents_update;
--> statement-breakpoint
ALTER TABLE stories ENABLE ALWAYS TRIGGER stories_documents_delete;
--> statement-breakpoint
ALTER TABLE stories ENABLE ALWAYS TRIGGER stories_documents_truncate;
--> statement-breakpoint
ALTER TABLE upvotes ENABLE ALWAYS TRIGGER upvotes_documents_insert;
--> statement-breakpoint
ALTER TABLE upvotes ENABLE ALWAYS TRIGGER upvotes_documents_update;
--> statement-breakpoint
ALTER TABLE upvotes ENABLE ALWAYS TRIGGER upvotes_documents_delete;
--> statement-breakpoint
ALTER TABLE upvotes ENABLE ALWAYS TRIGGER upvotes_documents_truncate;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER paper_entities_documents_insert;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER paper_entities_documents_update;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER paper_entities_documents_delete;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER paper_entities_documents_truncate;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_documents_insert;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_documents_update;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_documents_delete;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_documents_truncate;
--> statement-breakpoint
ALTER TABLE entities ENABLE ALWAYS TRIGGER entities_documents_update;
--> statement-breakpoint
ALTER TABLE entities ENABLE ALWAYS TRIGGER entities_documents_truncate;
--> statement-breakpoint
-- Every paper already held gets its (stale) row; the refresher or `cli documents rebuild` writes the bodies.
INSERT INTO paper_documents (paper_id) SELECT id FROM papers ORDER BY id;
