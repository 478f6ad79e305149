-- /api/v1/search answers are kept in the response cache (src/modules/v1/response-cache.ts), which
-- empties on every change to the tables behind the Data API. Meilisearch sees a change later, when
-- the worker drains the search outbox: a search answered in between comes from the index as it was,
-- and would be kept. Draining (and a rebuild's swap) deletes outbox rows once Meilisearch has applied
-- them, so a delete there empties the caches again. Inserts come with the change itself.
CREATE TRIGGER search_outbox_drained AFTER DELETE OR TRUNCATE ON search_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_data_changed');
