CREATE TABLE "claim_facet_counts" (
	"relation" text NOT NULL,
	"organism" text,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"indexed_month" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "claim_facet_counts_key" UNIQUE NULLS NOT DISTINCT("relation","organism","topic","study_type","preprint","indexed_month")
);
--> statement-breakpoint
CREATE TABLE "paper_facet_counts" (
	"indexed_date" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"n" integer NOT NULL,
	CONSTRAINT "paper_facet_counts_key" UNIQUE NULLS NOT DISTINCT("indexed_date","topic","study_type","preprint","relevance_band")
);
--> statement-breakpoint
CREATE TABLE "paper_organism_counts" (
	"indexed_date" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"organism" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "paper_organism_counts_key" UNIQUE NULLS NOT DISTINCT("indexed_date","topic","study_type","preprint","relevance_band","organism")
);
--> statement-breakpoint
CREATE TABLE "paper_relation_counts" (
	"indexed_date" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"relation" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "paper_relation_counts_key" UNIQUE NULLS NOT DISTINCT("indexed_date","topic","study_type","preprint","relevance_band","relation")
);
--> statement-breakpoint
CREATE TABLE "paper_facet_counts_monthly" (
	"indexed_month" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"n" integer NOT NULL,
	CONSTRAINT "paper_facet_counts_monthly_key" UNIQUE NULLS NOT DISTINCT("indexed_month","topic","study_type","preprint","relevance_band")
);
--> statement-breakpoint
CREATE TABLE "paper_organism_counts_monthly" (
	"indexed_month" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"organism" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "paper_organism_counts_monthly_key" UNIQUE NULLS NOT DISTINCT("indexed_month","topic","study_type","preprint","relevance_band","organism")
);
--> statement-breakpoint
CREATE TABLE "paper_relation_counts_monthly" (
	"indexed_month" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"relation" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "paper_relation_counts_monthly_key" UNIQUE NULLS NOT DISTINCT("indexed_month","topic","study_type","preprint","relevance_band","relation")
);
--> statement-breakpoint
-- The counts above are kept by the database itself, so every writer (ingest, judging, extraction, the
-- lexicon, the seeders, a psql session) keeps them exact in its own transaction. Writes to entities,
-- their links and claims are counted per statement (one aggregate per statement: a bulk load of 10,000
-- rows costs one upsert per key, not 10,000); a paper's own update is counted per row, and only when a
-- counted column changes (judging touches papers often; the filter values rarely). Upserts go in
-- key order so two writers touching the same keys wait for each other rather than deadlock.
CREATE FUNCTION geroscope_relevance_band(relevance double precision) RETURNS smallint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ select floor(relevance * 2)::smallint $$;
--> statement-breakpoint
-- The look-ups below go by index (a paper's links, claims and row): SET enable_seqscan = off keeps them so
-- while a bulk load fills tables the planner has no statistics for yet (it would scan the table per row).
-- Everything one paper contributes under its old values (o) taken away and under its new ones (nw) added,
-- either null. One statement per table, in key order, so two writers moving papers between the same keys in
-- opposite directions lock those keys in the same order instead of deadlocking.
-- Old and new rows are summed per key before the upsert: a change that keeps a key (a re-judgement within
-- the same band, or any change for claim counts, which have no relevance) must not upsert one key twice.
CREATE FUNCTION facet_counts_paper_apply(pid text, o papers, nw papers) RETURNS void
  LANGUAGE plpgsql SET enable_seqscan = off AS $$
begin
  with v (d, tp, st, pp, rb, sign) as (
      select o.indexed_date, o.topic, o.study_type, o.preprint, geroscope_relevance_band(o.relevance), -1 where o.id is not null
      union all select nw.indexed_date, nw.topic, nw.study_type, nw.preprint, geroscope_relevance_band(nw.relevance), 1 where nw.id is not null)
  insert into paper_facet_counts as t (indexed_date, topic, study_type, preprint, relevance_band, n)
    select d, tp, st, pp, rb, sum(sign)::int from v group by 1, 2, 3, 4, 5 having sum(sign) <> 0 order by 1, 2, 3, 4, 5
    on conflict on constraint paper_facet_counts_key do update set n = t.n + excluded.n;
  with v (d, tp, st, pp, rb, sign) as (
      select o.indexed_date, o.topic, o.study_type, o.preprint, geroscope_relevance_band(o.relevance), -1 where o.id is not null
      union all select nw.indexed_date, nw.topic, nw.study_type, nw.preprint, geroscope_relevance_band(nw.relevance), 1 where nw.id is not null),
    names as (select distinct e.name from paper_entities pe join entities e on e.id = pe.entity_id where pe.paper_id = pid and e.type = 'organism')
  insert into paper_organism_counts as t (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select v.d, v.tp, v.st, v.pp, v.rb, names.name, sum(v.sign)::int from v cross join names
    group by 1, 2, 3, 4, 5, 6 having sum(v.sign) <> 0 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_organism_counts_key do update set n = t.n + excluded.n;
  with v (d, tp, st, pp, rb, sign) as (
      select o.indexed_date, o.topic, o.study_type, o.preprint, geroscope_relevance_band(o.relevance), -1 where o.id is not null
      union all select nw.indexed_date, nw.topic, nw.study_type, nw.preprint, geroscope_relevance_band(nw.relevance), 1 where nw.id is not null),
    relations as (select distinct c.relation from claims c where c.paper_id = pid)
  insert into paper_relation_counts as t (indexed_date, topic, study_type, preprint, relevance_band, relation, n)
    select v.d, v.tp, v.st, v.pp, v.rb, relations.relation, sum(v.sign)::int from v cross join relations
    group by 1, 2, 3, 4, 5, 6 having sum(v.sign) <> 0 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_relation_counts_key do update set n = t.n + excluded.n;
  with v (d, tp, st, pp, rb, sign) as (
      select o.indexed_date, o.topic, o.study_type, o.preprint, geroscope_relevance_band(o.relevance), -1 where o.id is not null
      union all select nw.indexed_date, nw.topic, nw.study_type, nw.preprint, geroscope_relevance_band(nw.relevance), 1 where nw.id is not null),
    kinds as (select c.relation, c.organism, count(*)::int as k from claims c where c.paper_id = pid group by 1, 2)
  insert into claim_facet_counts as t (relation, organism, topic, study_type, preprint, indexed_month, n)
    select kinds.relation, kinds.organism, v.tp, v.st, v.pp, date_trunc('month', v.d)::date, sum(v.sign * kinds.k)::int from v cross join kinds
    group by 1, 2, 3, 4, 5, 6 having sum(v.sign * kinds.k) <> 0 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint claim_facet_counts_key do update set n = t.n + excluded.n;
end $$;
--> statement-breakpoint
CREATE FUNCTION facet_counts_papers_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  -- A new paper has no entities or claims yet (they reference it), so only its own row counts.
  insert into paper_facet_counts as t (indexed_date, topic, study_type, preprint, relevance_band, n)
    select indexed_date, topic, study_type, preprint, geroscope_relevance_band(relevance), count(*)::int from added
    group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict on constraint paper_facet_counts_key do update set n = t.n + excluded.n;
  return null;
end $$;
--> statement-breakpoint
CREATE FUNCTION facet_counts_paper_changed() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_op = 'UPDATE' then
    perform facet_counts_paper_apply(old.id, old, new);
    return null;
  end if;
  -- BEFORE DELETE: the paper's entities and claims are still there to subtract; the cascade that
  -- deletes them next finds no paper and leaves the counts alone.
  perform facet_counts_paper_apply(old.id, old, null);
  return old;
end $$;
--> statement-breakpoint
-- A paper counts once per organism name and once per claim relation, whatever its roles or claims:
-- for each (paper, name) pair a statement touched, `delta` is how many linking rows it added (or, negative,
-- removed) and `now` how many there are; only a pair going from none to some (+1) or some to none (-1)
-- moves a count. Rows of a paper or entity being deleted find no paper or entity here: their BEFORE
-- DELETE triggers subtracted them already.
CREATE FUNCTION facet_counts_paper_entities_changed() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
begin
  if tg_op = 'INSERT' then
    with d as (select r.paper_id, e.name, 1 as delta from added r join entities e on e.id = r.entity_id where e.type = 'organism'),
      s as (select paper_id, name, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_organism_counts as t (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select count(*)::int as now from paper_entities pe join entities e on e.id = pe.entity_id
        where pe.paper_id = s.paper_id and e.type = 'organism' and e.name = s.name) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_organism_counts_key do update set n = t.n + excluded.n;
  elsif tg_op = 'DELETE' then
    with d as (select r.paper_id, e.name, -1 as delta from removed r join entities e on e.id = r.entity_id where e.type = 'organism'),
      s as (select paper_id, name, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_organism_counts as t (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select count(*)::int as now from paper_entities pe join entities e on e.id = pe.entity_id
        where pe.paper_id = s.paper_id and e.type = 'organism' and e.name = s.name) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_organism_counts_key do update set n = t.n + excluded.n;
  else
    with d as (select r.paper_id, e.name, -1 as delta from removed r join entities e on e.id = r.entity_id where e.type = 'organism' union all select r.paper_id, e.name, 1 as delta from added r join entities e on e.id = r.entity_id where e.type = 'organism'),
      s as (select paper_id, name, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_organism_counts as t (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select count(*)::int as now from paper_entities pe join entities e on e.id = pe.entity_id
        where pe.paper_id = s.paper_id and e.type = 'organism' and e.name = s.name) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_organism_counts_key do update set n = t.n + excluded.n;
  end if;
  return null;
end $$;
--> statement-breakpoint
-- An organism entity renamed (or retyped) moves its papers from one name to another; one deleted takes
-- its papers out of its name (BEFORE DELETE, while its links are still there: see above).
CREATE FUNCTION facet_counts_entities_changed() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
begin
  if tg_op = 'DELETE' then
    -- BEFORE DELETE: the entity's links are still there, so `now` leaves them out.
    with d as (select pe.paper_id, old.name as name, -1 as delta from paper_entities pe where pe.entity_id = old.id and old.type = 'organism'),
      s as (select paper_id, name, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_organism_counts as t (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select count(*)::int as now from paper_entities pe join entities e on e.id = pe.entity_id
        where pe.paper_id = s.paper_id and e.type = 'organism' and e.name = s.name and pe.entity_id <> old.id) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_organism_counts_key do update set n = t.n + excluded.n;
    return old;
  end if;
    with d as (select pe.paper_id, x.name, x.sign * 1 as delta
      from (select o.id, o.name, -1 as sign from removed o join added n on n.id = o.id
              where o.type = 'organism' and (o.name is distinct from n.name or n.type is distinct from 'organism')
            union all
            select n.id, n.name, 1 from removed o join added n on n.id = o.id
              where n.type = 'organism' and (o.name is distinct from n.name or o.type is distinct from 'organism')) x
      join paper_entities pe on pe.entity_id = x.id),
      s as (select paper_id, name, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_organism_counts as t (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select count(*)::int as now from paper_entities pe join entities e on e.id = pe.entity_id
        where pe.paper_id = s.paper_id and e.type = 'organism' and e.name = s.name) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_organism_counts_key do update set n = t.n + excluded.n;
  return null;
end $$;
--> statement-breakpoint
CREATE FUNCTION facet_counts_claims_changed() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    insert into claim_facet_counts as t (relation, organism, topic, study_type, preprint, indexed_month, n)
    select x.relation, x.organism, p.topic, p.study_type, p.preprint, date_trunc('month', p.indexed_date)::date, -count(*)::int
    from removed x join papers p on p.id = x.paper_id
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint claim_facet_counts_key do update set n = t.n + excluded.n;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into claim_facet_counts as t (relation, organism, topic, study_type, preprint, indexed_month, n)
    select x.relation, x.organism, p.topic, p.study_type, p.preprint, date_trunc('month', p.indexed_date)::date, count(*)::int
    from added x join papers p on p.id = x.paper_id
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint claim_facet_counts_key do update set n = t.n + excluded.n;
  end if;
  if tg_op = 'INSERT' then
    with d as (select paper_id, relation, 1 as delta from added),
      s as (select paper_id, relation, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_relation_counts as t (indexed_date, topic, study_type, preprint, relevance_band, relation, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.relation,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select count(*)::int as now from claims cl where cl.paper_id = s.paper_id and cl.relation = s.relation) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_relation_counts_key do update set n = t.n + excluded.n;
  elsif tg_op = 'DELETE' then
    with d as (select paper_id, relation, -1 as delta from removed),
      s as (select paper_id, relation, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_relation_counts as t (indexed_date, topic, study_type, preprint, relevance_band, relation, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.relation,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select count(*)::int as now from claims cl where cl.paper_id = s.paper_id and cl.relation = s.relation) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_relation_counts_key do update set n = t.n + excluded.n;
  else
    with d as (select paper_id, relation, -1 as delta from removed union all select paper_id, relation, 1 from added),
      s as (select paper_id, relation, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_relation_counts as t (indexed_date, topic, study_type, preprint, relevance_band, relation, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.relation,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select count(*)::int as now from claims cl where cl.paper_id = s.paper_id and cl.relation = s.relation) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict on constraint paper_relation_counts_key do update set n = t.n + excluded.n;
  end if;
  return null;
end $$;
--> statement-breakpoint
CREATE FUNCTION facet_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_table_name = 'papers' then
    truncate paper_facet_counts, paper_organism_counts, paper_relation_counts, claim_facet_counts,
      paper_facet_counts_monthly, paper_organism_counts_monthly, paper_relation_counts_monthly;
  elsif tg_table_name in ('paper_entities', 'entities') then truncate paper_organism_counts, paper_organism_counts_monthly;
  else truncate paper_relation_counts, paper_relation_counts_monthly, claim_facet_counts;
  end if;
  return null;
end $$;
--> statement-breakpoint
CREATE TRIGGER facet_counts_papers_insert AFTER INSERT ON papers REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_papers_inserted();
--> statement-breakpoint
CREATE TRIGGER facet_counts_papers_update AFTER UPDATE OF indexed_date, topic, study_type, preprint, relevance ON papers
  FOR EACH ROW WHEN (old.indexed_date IS DISTINCT FROM new.indexed_date OR old.topic IS DISTINCT FROM new.topic
    OR old.study_type IS DISTINCT FROM new.study_type OR old.preprint IS DISTINCT FROM new.preprint
    OR geroscope_relevance_band(old.relevance) IS DISTINCT FROM geroscope_relevance_band(new.relevance))
  EXECUTE FUNCTION facet_counts_paper_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_papers_delete BEFORE DELETE ON papers FOR EACH ROW EXECUTE FUNCTION facet_counts_paper_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_papers_truncate AFTER TRUNCATE ON papers FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_truncated();
--> statement-breakpoint
CREATE TRIGGER facet_counts_paper_entities_insert AFTER INSERT ON paper_entities REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_paper_entities_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_paper_entities_delete AFTER DELETE ON paper_entities REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_paper_entities_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_paper_entities_update AFTER UPDATE ON paper_entities REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_paper_entities_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_paper_entities_truncate AFTER TRUNCATE ON paper_entities FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_truncated();
--> statement-breakpoint
CREATE TRIGGER facet_counts_entities_update AFTER UPDATE ON entities REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_entities_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_entities_delete BEFORE DELETE ON entities FOR EACH ROW WHEN (old.type = 'organism')
  EXECUTE FUNCTION facet_counts_entities_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_claims_insert AFTER INSERT ON claims REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_claims_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_claims_delete AFTER DELETE ON claims REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_claims_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_claims_update AFTER UPDATE ON claims REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_claims_changed();
--> statement-breakpoint
CREATE TRIGGER facet_counts_claims_truncate AFTER TRUNCATE ON claims FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_truncated();
--> statement-breakpoint
-- Fire even under session_replication_role = replica, which the bulk loader sets to skip foreign-key
-- checks (src/seed/bulk-load.ts): the counts must follow every write, the loader's included.
ALTER TABLE papers ENABLE ALWAYS TRIGGER facet_counts_papers_insert;
--> statement-breakpoint
ALTER TABLE papers ENABLE ALWAYS TRIGGER facet_counts_papers_update;
--> statement-breakpoint
ALTER TABLE papers ENABLE ALWAYS TRIGGER facet_counts_papers_delete;
--> statement-breakpoint
ALTER TABLE papers ENABLE ALWAYS TRIGGER facet_counts_papers_truncate;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER facet_counts_paper_entities_insert;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER facet_counts_paper_entities_delete;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER facet_counts_paper_entities_update;
--> statement-breakpoint
ALTER TABLE paper_entities ENABLE ALWAYS TRIGGER facet_counts_paper_entities_truncate;
--> statement-breakpoint
ALTER TABLE entities ENABLE ALWAYS TRIGGER facet_counts_entities_update;
--> statement-breakpoint
ALTER TABLE entities ENABLE ALWAYS TRIGGER facet_counts_entities_delete;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER facet_counts_claims_insert;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER facet_counts_claims_delete;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER facet_counts_claims_update;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER facet_counts_claims_truncate;
--> statement-breakpoint
-- The counts of what is already there (a 1,000,000-paper database: see docs/benchmarks.md for the time).
INSERT INTO paper_facet_counts (indexed_date, topic, study_type, preprint, relevance_band, n)
  SELECT indexed_date, topic, study_type, preprint, geroscope_relevance_band(relevance), count(*)::int FROM papers GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO paper_organism_counts (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
  SELECT p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), o.name, count(*)::int
  FROM (SELECT DISTINCT pe.paper_id, e.name FROM paper_entities pe JOIN entities e ON e.id = pe.entity_id WHERE e.type = 'organism') o
  JOIN papers p ON p.id = o.paper_id GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO paper_relation_counts (indexed_date, topic, study_type, preprint, relevance_band, relation, n)
  SELECT p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), r.relation, count(*)::int
  FROM (SELECT DISTINCT paper_id, relation FROM claims) r JOIN papers p ON p.id = r.paper_id GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO claim_facet_counts (relation, organism, topic, study_type, preprint, indexed_month, n)
  SELECT c.relation, c.organism, p.topic, p.study_type, p.preprint, date_trunc('month', p.indexed_date)::date, count(*)::int
  FROM claims c JOIN papers p ON p.id = c.paper_id GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO paper_facet_counts_monthly (indexed_month, topic, study_type, preprint, relevance_band, n)
  SELECT date_trunc('month', indexed_date)::date, topic, study_type, preprint, relevance_band, sum(n)::int FROM paper_facet_counts GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO paper_organism_counts_monthly (indexed_month, topic, study_type, preprint, relevance_band, organism, n)
  SELECT date_trunc('month', indexed_date)::date, topic, study_type, preprint, relevance_band, organism, sum(n)::int FROM paper_organism_counts GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO paper_relation_counts_monthly (indexed_month, topic, study_type, preprint, relevance_band, relation, n)
  SELECT date_trunc('month', indexed_date)::date, topic, study_type, preprint, relevance_band, relation, sum(n)::int FROM paper_relation_counts GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
-- Every change of a daily row, added to its month's row (the daily rows are only ever upserted with a
-- delta, truncated with the month rows, and never deleted).
CREATE FUNCTION facet_counts_to_month() RETURNS trigger LANGUAGE plpgsql AS $$
declare delta integer := new.n - coalesce(case when tg_op = 'UPDATE' then old.n end, 0);
begin
  if delta = 0 then return null; end if;
  if tg_table_name = 'paper_facet_counts' then
    insert into paper_facet_counts_monthly as t (indexed_month, topic, study_type, preprint, relevance_band, n)
      values (date_trunc('month', new.indexed_date)::date, new.topic, new.study_type, new.preprint, new.relevance_band, delta)
      on conflict on constraint paper_facet_counts_monthly_key do update set n = t.n + excluded.n;
  elsif tg_table_name = 'paper_organism_counts' then
    insert into paper_organism_counts_monthly as t (indexed_month, topic, study_type, preprint, relevance_band, organism, n)
      values (date_trunc('month', new.indexed_date)::date, new.topic, new.study_type, new.preprint, new.relevance_band, new.organism, delta)
      on conflict on constraint paper_organism_counts_monthly_key do update set n = t.n + excluded.n;
  else
    insert into paper_relation_counts_monthly as t (indexed_month, topic, study_type, preprint, relevance_band, relation, n)
      values (date_trunc('month', new.indexed_date)::date, new.topic, new.study_type, new.preprint, new.relevance_band, new.relation, delta)
      on conflict on constraint paper_relation_counts_monthly_key do update set n = t.n + excluded.n;
  end if;
  return null;
end $$;
--> statement-breakpoint
CREATE TRIGGER facet_counts_to_month AFTER INSERT OR UPDATE ON paper_facet_counts FOR EACH ROW EXECUTE FUNCTION facet_counts_to_month();
--> statement-breakpoint
CREATE TRIGGER facet_counts_to_month AFTER INSERT OR UPDATE ON paper_organism_counts FOR EACH ROW EXECUTE FUNCTION facet_counts_to_month();
--> statement-breakpoint
CREATE TRIGGER facet_counts_to_month AFTER INSERT OR UPDATE ON paper_relation_counts FOR EACH ROW EXECUTE FUNCTION facet_counts_to_month();
--> statement-breakpoint
ALTER TABLE paper_facet_counts ENABLE ALWAYS TRIGGER facet_counts_to_month;
--> statement-breakpoint
ALTER TABLE paper_organism_counts ENABLE ALWAYS TRIGGER facet_counts_to_month;
--> statement-breakpoint
ALTER TABLE paper_relation_counts ENABLE ALWAYS TRIGGER facet_counts_to_month;
