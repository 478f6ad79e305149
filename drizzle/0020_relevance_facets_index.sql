-- Live counts of a relevance range read by index-only scan (src/modules/v1/facets/papers.ts): the band below an
-- off-grain min_relevance, with every other filter's column included, so no heap page is read. At 1M papers the
-- live part of min_relevance=2.25 with random filters went from 90-200 ms per statement (bitmap heap scans over
-- scattered pages) to an index range (docs/benchmarks.md).
CREATE INDEX "papers_relevance_facets_idx" ON "papers" USING btree ("relevance") INCLUDE ("topic", "study_type", "preprint", "indexed_date", "id");
