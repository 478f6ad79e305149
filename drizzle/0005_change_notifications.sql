-- Every process learns by NOTIFY when what the Data API serves changes, whoever changed it (the
-- API, a worker, a CLI run in another process): API processes cache responses and key records
-- (src/db/changes.ts) and drop them on these notifications. Statement-level triggers, so a bulk
-- load sends one notification per statement, and PostgreSQL folds repeats within a transaction.
CREATE FUNCTION geroscope_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER papers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON papers
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_data_changed');
--> statement-breakpoint
CREATE TRIGGER stories_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON stories
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_data_changed');
--> statement-breakpoint
CREATE TRIGGER claims_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON claims
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_data_changed');
--> statement-breakpoint
CREATE TRIGGER paper_entities_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON paper_entities
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_data_changed');
--> statement-breakpoint
CREATE TRIGGER entities_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON entities
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_data_changed');
--> statement-breakpoint
CREATE TRIGGER upvotes_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON upvotes
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_data_changed');
--> statement-breakpoint
CREATE TRIGGER api_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_keys_changed');
--> statement-breakpoint
CREATE TRIGGER accounts_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_keys_changed');
