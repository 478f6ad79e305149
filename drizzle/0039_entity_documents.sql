CREATE TABLE "entity_documents" (
	"entity_id" integer PRIMARY KEY NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"body" text,
	"next_position" text
);
--> statement-breakpoint
ALTER TABLE "entity_documents" ADD CONSTRAINT "entity_documents_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entity_documents_stale_idx" ON "entity_documents" USING btree ("entity_id") WHERE body is null;--> statement-breakpoint
-- Stored entity pages (issue 39, src/documents/entities.ts): the first page of /entities/{type}/{key} (the entity,
-- its claim count, its 25 newest papers as PaperRefs with the entity's roles, and whether more follow), kept fresh
-- as paper_documents are (drizzle/0034): every change to what it shows sets its body to NULL and bumps its
-- generation in the writing transaction; the refresher writes a body only under the generation it read the rows with.
-- A deleted entity's row goes by ON DELETE CASCADE.
CREATE FUNCTION geroscope_entity_documents_stale(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- As geroscope_documents_stale: rows locked in key order; a row this transaction already made stale is left.
  UPDATE entity_documents d SET body = NULL, next_position = NULL, generation = d.generation + 1
    WHERE d.entity_id = ANY (ids) AND NOT (d.body IS NULL AND d.xmin = pg_current_xact_id()::xid);
END $$;
--> statement-breakpoint
-- An entity's own fields (type, key, name, ids and the paper_count the minutely refresh keeps).
CREATE FUNCTION geroscope_entity_documents_entities() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO entity_documents (entity_id) SELECT n.id FROM new_rows n ORDER BY n.id
      ON CONFLICT (entity_id) DO UPDATE SET body = NULL, next_position = NULL,
        generation = entity_documents.generation + 1;
    RETURN NULL;
  END IF;
  SELECT array_agg(n.id ORDER BY n.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.type, n.key, n.name, n.ids, n.paper_count) IS DISTINCT FROM (o.type, o.key, o.name, o.ids, o.paper_count);
  IF ids IS NOT NULL THEN PERFORM geroscope_entity_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A link added, changed or removed (a withdrawn paper's go by cascade, through here): the page and its roles.
CREATE FUNCTION geroscope_entity_documents_links() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT n.entity_id) INTO ids FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT o.entity_id) INTO ids FROM old_rows o;
  ELSE
    SELECT array_agg(DISTINCT e) INTO ids FROM (
      SELECT n.entity_id AS e FROM new_rows n UNION SELECT o.entity_id FROM old_rows o) changed;
  END IF;
  IF ids IS NOT NULL THEN PERFORM geroscope_entity_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The claim count: the entities on either side of a claim written, deleted or moved to another entity.
CREATE FUNCTION geroscope_entity_documents_claims() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT e) INTO ids FROM (
      SELECT n.subject_entity_id AS e FROM new_rows n UNION SELECT n.object_entity_id FROM new_rows n) sides
      WHERE e IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT e) INTO ids FROM (
      SELECT o.subject_entity_id AS e FROM old_rows o UNION SELECT o.object_entity_id FROM old_rows o) sides
      WHERE e IS NOT NULL;
  ELSE
    SELECT array_agg(DISTINCT e) INTO ids FROM (
      SELECT n.subject_entity_id AS e FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.subject_entity_id, n.object_entity_id) IS DISTINCT FROM (o.subject_entity_id, o.object_entity_id)
      UNION SELECT n.object_entity_id FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.subject_entity_id, n.object_entity_id) IS DISTINCT FROM (o.subject_entity_id, o.object_entity_id)
      UNION SELECT o.subject_entity_id FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.subject_entity_id, n.object_entity_id) IS DISTINCT FROM (o.subject_entity_id, o.object_entity_id)
      UNION SELECT o.object_entity_id FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.subject_entity_id, n.object_entity_id) IS DISTINCT FROM (o.subject_entity_id, o.object_entity_id)
    ) sides WHERE e IS NOT NULL;
  END IF;
  IF ids IS NOT NULL THEN PERFORM geroscope_entity_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A PaperRef's fields (every column serializePaperRef reads), for the entities the paper is linked to.
CREATE FUNCTION geroscope_entity_documents_papers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE changed text[]; ids integer[];
BEGIN
  SELECT array_agg(n.id) INTO changed FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.source, n.doi, n.title, n.authors, n.journal, n.published_date, n.indexed_date, n.preprint, n.publication_types,
           n.url, n.abstract, n.abstract_license, n.relevance, n.relevance_confidence, n.newsworthiness, n.study_type,
           n.study_type_confidence, n.topic, n.topic_confidence, n.promotional, n.judgement_model, n.judgement_prompt_version,
           n.judged_at)
      IS DISTINCT FROM
          (o.source, o.doi, o.title, o.authors, o.journal, o.published_date, o.indexed_date, o.preprint, o.publication_types,
           o.url, o.abstract, o.abstract_license, o.relevance, o.relevance_confidence, o.newsworthiness, o.study_type,
           o.study_type_confidence, o.topic, o.topic_confidence, o.promotional, o.judgement_model, o.judgement_prompt_version,
           o.judged_at);
  IF changed IS NULL THEN RETURN NULL; END IF;
  SELECT array_agg(DISTINCT pe.entity_id) INTO ids FROM paper_entities pe WHERE pe.paper_id = ANY (changed);
  IF ids IS NOT NULL THEN PERFORM geroscope_entity_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TRUNCATE has no transition table: every entity document goes stale (entities' own truncation takes the rows).
CREATE FUNCTION geroscope_entity_documents_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE entity_documents SET body = NULL, next_position = NULL, generation = generation + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER entities_entity_documents_insert AFTER INSERT ON entities REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_entities();
--> statement-breakpoint
CREATE TRIGGER entities_entity_documents_update AFTER UPDATE ON entities REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_entities();
--> statement-breakpoint
CREATE TRIGGER paper_entities_entity_documents_insert AFTER INSERT ON paper_entities REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_links();
--> statement-breakpoint
CREATE TRIGGER paper_entities_entity_documents_update AFTER UPDATE ON paper_entities REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_links();
--> statement-breakpoint
CREATE TRIGGER paper_entities_entity_documents_delete AFTER DELETE ON paper_entities REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_links();
--> statement-breakpoint
CREATE TRIGGER paper_entities_entity_documents_truncate AFTER TRUNCATE ON paper_entities FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_truncated();
--> statement-breakpoint
CREATE TRIGGER claims_entity_documents_insert AFTER INSERT ON claims REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_claims();
--> statement-breakpoint
CREATE TRIGGER claims_entity_documents_update AFTER UPDATE ON claims REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_claims();
--> statement-breakpoint
CREATE TRIGGER claims_entity_documents_delete AFTER DELETE ON claims REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_claims();
--> statement-breakpoint
CREATE TRIGGER claims_entity_documents_truncate AFTER TRUNCATE ON claims FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_truncated();
--> statement-breakpoint
CREATE TRIGGER papers_entity_documents_update AFTER UPDATE ON papers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_entity_documents_papers();
--> statement-breakpoint
-- ALWAYS: the bulk loader runs with session_replication_role = replica (src/seed/bulk-load.ts), which silences ordinary triggers.
ALTER TABLE entities ENABLE ALWAYS TRIGGER entities_entity_documents_insert;
--> statement-breakpoint
ALTER TABLE entities ENABLE ALWAYS TRIGGER entities_entity_documents_update;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER paper_entities_entity_documents_insert;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER paper_entities_entity_documents_update;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER paper_entities_entity_documents_delete;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER paper_entities_entity_documents_truncate;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_entity_documents_insert;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_entity_documents_update;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_entity_documents_delete;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_entity_documents_truncate;
--> statement-breakpoint
ALTER TABLE papers ENABLE ALWAYS TRIGGER papers_entity_documents_update;
--> statement-breakpoint
-- Every entity already held gets its (stale) row; the refresher or `cli documents rebuild` writes the bodies.
INSERT INTO entity_documents (entity_id) SELECT id FROM entities ORDER BY id;
