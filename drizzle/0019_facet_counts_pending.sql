CREATE TABLE "claim_facet_counts_pending" (
	"relation" text NOT NULL,
	"organism" text,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"indexed_month" date NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_facet_counts_monthly_pending" (
	"indexed_month" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_facet_counts_pending" (
	"indexed_date" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_organism_counts_monthly_pending" (
	"indexed_month" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"organism" text NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_organism_counts_pending" (
	"indexed_date" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"organism" text NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_relation_counts_monthly_pending" (
	"indexed_month" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"relation" text NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_relation_counts_pending" (
	"indexed_date" date NOT NULL,
	"topic" text,
	"study_type" text,
	"preprint" boolean NOT NULL,
	"relevance_band" smallint,
	"relation" text NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
-- Writers no longer upsert the shared count rows: each write appends its aggregated change to the
-- table's _pending twin (above), and readers sum the two. An upsert held the count rows it touched until
-- its transaction ended, so concurrent writers queued on them (the bulk loader's parallel chunks ran one
-- at a time), and the row-level propagation from daily to monthly rows locked month rows out of key
-- order, so two writers could deadlock (seen: a harvest-like insert beside the bulk loader, 40P01).
-- Appends take no row locks. facet_counts_compact() folds the pending changes into the counts, one
-- compaction at a time. The functions are 0016's with their upserts turned into appends, and each
-- look-up of a paper's links and claims led by the paper alone: "paper_id = x and relation = y" was
-- planned as a BitmapAnd with the relation index, reading a whole relation per pair (20 s per bulk-load
-- chunk at 200,000 papers, growing with the table).
CREATE OR REPLACE FUNCTION facet_counts_paper_apply(pid text, o papers, nw papers) RETURNS void
  LANGUAGE plpgsql SET enable_seqscan = off AS $$
begin
  with v (d, tp, st, pp, rb, sign) as (
      select o.indexed_date, o.topic, o.study_type, o.preprint, geroscope_relevance_band(o.relevance), -1 where o.id is not null
      union all select nw.indexed_date, nw.topic, nw.study_type, nw.preprint, geroscope_relevance_band(nw.relevance), 1 where nw.id is not null)
  insert into paper_facet_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, n)
    select d, tp, st, pp, rb, sum(sign)::int from v group by 1, 2, 3, 4, 5 having sum(sign) <> 0;
  with v (d, tp, st, pp, rb, sign) as (
      select o.indexed_date, o.topic, o.study_type, o.preprint, geroscope_relevance_band(o.relevance), -1 where o.id is not null
      union all select nw.indexed_date, nw.topic, nw.study_type, nw.preprint, geroscope_relevance_band(nw.relevance), 1 where nw.id is not null),
    names as (select distinct e.name from paper_entities pe join entities e on e.id = pe.entity_id where pe.paper_id = pid and e.type = 'organism')
  insert into paper_organism_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select v.d, v.tp, v.st, v.pp, v.rb, names.name, sum(v.sign)::int from v cross join names
    group by 1, 2, 3, 4, 5, 6 having sum(v.sign) <> 0;
  with v (d, tp, st, pp, rb, sign) as (
      select o.indexed_date, o.topic, o.study_type, o.preprint, geroscope_relevance_band(o.relevance), -1 where o.id is not null
      union all select nw.indexed_date, nw.topic, nw.study_type, nw.preprint, geroscope_relevance_band(nw.relevance), 1 where nw.id is not null),
    relations as (select distinct c.relation from claims c where c.paper_id = pid)
  insert into paper_relation_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, relation, n)
    select v.d, v.tp, v.st, v.pp, v.rb, relations.relation, sum(v.sign)::int from v cross join relations
    group by 1, 2, 3, 4, 5, 6 having sum(v.sign) <> 0;
  with v (d, tp, st, pp, rb, sign) as (
      select o.indexed_date, o.topic, o.study_type, o.preprint, geroscope_relevance_band(o.relevance), -1 where o.id is not null
      union all select nw.indexed_date, nw.topic, nw.study_type, nw.preprint, geroscope_relevance_band(nw.relevance), 1 where nw.id is not null),
    kinds as (select c.relation, c.organism, count(*)::int as k from claims c where c.paper_id = pid group by 1, 2)
  insert into claim_facet_counts_pending (relation, organism, topic, study_type, preprint, indexed_month, n)
    select kinds.relation, kinds.organism, v.tp, v.st, v.pp, date_trunc('month', v.d)::date, sum(v.sign * kinds.k)::int from v cross join kinds
    group by 1, 2, 3, 4, 5, 6 having sum(v.sign * kinds.k) <> 0;
end $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION facet_counts_papers_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  -- A new paper has no entities or claims yet (they reference it), so only its own row counts.
  insert into paper_facet_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, n)
    select indexed_date, topic, study_type, preprint, geroscope_relevance_band(relevance), count(*)::int from added
    group by 1, 2, 3, 4, 5;
  return null;
end $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION facet_counts_paper_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE FUNCTION facet_counts_paper_entities_changed() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
begin
  if tg_op = 'INSERT' then
    with d as (select r.paper_id, e.name, 1 as delta from added r join entities e on e.id = r.entity_id where e.type = 'organism'),
      s as (select paper_id, name, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_organism_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select (count(*) filter (where e.type = 'organism' and e.name = s.name))::int as now
        from paper_entities pe join entities e on e.id = pe.entity_id where pe.paper_id = s.paper_id) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6;
  elsif tg_op = 'DELETE' then
    with d as (select r.paper_id, e.name, -1 as delta from removed r join entities e on e.id = r.entity_id where e.type = 'organism'),
      s as (select paper_id, name, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_organism_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select (count(*) filter (where e.type = 'organism' and e.name = s.name))::int as now
        from paper_entities pe join entities e on e.id = pe.entity_id where pe.paper_id = s.paper_id) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6;
  else
    with d as (select r.paper_id, e.name, -1 as delta from removed r join entities e on e.id = r.entity_id where e.type = 'organism' union all select r.paper_id, e.name, 1 as delta from added r join entities e on e.id = r.entity_id where e.type = 'organism'),
      s as (select paper_id, name, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_organism_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select (count(*) filter (where e.type = 'organism' and e.name = s.name))::int as now
        from paper_entities pe join entities e on e.id = pe.entity_id where pe.paper_id = s.paper_id) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6;
  end if;
  return null;
end $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION facet_counts_entities_changed() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
begin
  if tg_op = 'DELETE' then
    -- BEFORE DELETE: the entity's links are still there, so `now` leaves them out.
    with d as (select pe.paper_id, old.name as name, -1 as delta from paper_entities pe where pe.entity_id = old.id and old.type = 'organism'),
      s as (select paper_id, name, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_organism_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select (count(*) filter (where e.type = 'organism' and e.name = s.name and pe.entity_id <> old.id))::int as now
        from paper_entities pe join entities e on e.id = pe.entity_id where pe.paper_id = s.paper_id) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6;
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
    insert into paper_organism_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, organism, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.name,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select (count(*) filter (where e.type = 'organism' and e.name = s.name))::int as now
        from paper_entities pe join entities e on e.id = pe.entity_id where pe.paper_id = s.paper_id) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6;
  return null;
end $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION facet_counts_claims_changed() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    insert into claim_facet_counts_pending (relation, organism, topic, study_type, preprint, indexed_month, n)
    select x.relation, x.organism, p.topic, p.study_type, p.preprint, date_trunc('month', p.indexed_date)::date, -count(*)::int
    from removed x join papers p on p.id = x.paper_id
    group by 1, 2, 3, 4, 5, 6;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into claim_facet_counts_pending (relation, organism, topic, study_type, preprint, indexed_month, n)
    select x.relation, x.organism, p.topic, p.study_type, p.preprint, date_trunc('month', p.indexed_date)::date, count(*)::int
    from added x join papers p on p.id = x.paper_id
    group by 1, 2, 3, 4, 5, 6;
  end if;
  if tg_op = 'INSERT' then
    with d as (select paper_id, relation, 1 as delta from added),
      s as (select paper_id, relation, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_relation_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, relation, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.relation,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select (count(*) filter (where cl.relation = s.relation))::int as now from claims cl where cl.paper_id = s.paper_id) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6;
  elsif tg_op = 'DELETE' then
    with d as (select paper_id, relation, -1 as delta from removed),
      s as (select paper_id, relation, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_relation_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, relation, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.relation,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select (count(*) filter (where cl.relation = s.relation))::int as now from claims cl where cl.paper_id = s.paper_id) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6;
  else
    with d as (select paper_id, relation, -1 as delta from removed union all select paper_id, relation, 1 from added),
      s as (select paper_id, relation, sum(delta)::int as delta from d group by 1, 2)
    insert into paper_relation_counts_pending (indexed_date, topic, study_type, preprint, relevance_band, relation, n)
    select p.indexed_date, p.topic, p.study_type, p.preprint, geroscope_relevance_band(p.relevance), s.relation,
      sum(case when c.now > 0 then 1 else -1 end)::int
    from s cross join lateral (select (count(*) filter (where cl.relation = s.relation))::int as now from claims cl where cl.paper_id = s.paper_id) c
      join papers p on p.id = s.paper_id
    where (c.now = 0) <> (c.now - s.delta = 0)
    group by 1, 2, 3, 4, 5, 6;
  end if;
  return null;
end $$;

--> statement-breakpoint
-- Every change to a daily count, added to its month's (one append per statement).
CREATE FUNCTION facet_counts_pending_to_month() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_table_name = 'paper_facet_counts_pending' then
    insert into paper_facet_counts_monthly_pending (indexed_month, topic, study_type, preprint, relevance_band, n)
      select date_trunc('month', indexed_date)::date, topic, study_type, preprint, relevance_band, sum(n)::int from added group by 1, 2, 3, 4, 5 having sum(n) <> 0;
  elsif tg_table_name = 'paper_organism_counts_pending' then
    insert into paper_organism_counts_monthly_pending (indexed_month, topic, study_type, preprint, relevance_band, organism, n)
      select date_trunc('month', indexed_date)::date, topic, study_type, preprint, relevance_band, organism, sum(n)::int from added group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0;
  elsif tg_table_name = 'paper_relation_counts_pending' then
    insert into paper_relation_counts_monthly_pending (indexed_month, topic, study_type, preprint, relevance_band, relation, n)
      select date_trunc('month', indexed_date)::date, topic, study_type, preprint, relevance_band, relation, sum(n)::int from added group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0;
  end if;
  return null;
end $$;
--> statement-breakpoint
DROP TRIGGER facet_counts_to_month ON paper_facet_counts;
--> statement-breakpoint
DROP TRIGGER facet_counts_to_month ON paper_organism_counts;
--> statement-breakpoint
DROP TRIGGER facet_counts_to_month ON paper_relation_counts;
--> statement-breakpoint
DROP FUNCTION facet_counts_to_month();
--> statement-breakpoint
CREATE TRIGGER facet_counts_to_month AFTER INSERT ON paper_facet_counts_pending REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_pending_to_month();
--> statement-breakpoint
ALTER TABLE paper_facet_counts_pending ENABLE ALWAYS TRIGGER facet_counts_to_month;
--> statement-breakpoint
CREATE TRIGGER facet_counts_to_month AFTER INSERT ON paper_organism_counts_pending REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_pending_to_month();
--> statement-breakpoint
ALTER TABLE paper_organism_counts_pending ENABLE ALWAYS TRIGGER facet_counts_to_month;
--> statement-breakpoint
CREATE TRIGGER facet_counts_to_month AFTER INSERT ON paper_relation_counts_pending REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION facet_counts_pending_to_month();
--> statement-breakpoint
ALTER TABLE paper_relation_counts_pending ENABLE ALWAYS TRIGGER facet_counts_to_month;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION facet_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_table_name = 'papers' then
    truncate paper_facet_counts, paper_facet_counts_pending, paper_organism_counts, paper_organism_counts_pending, paper_relation_counts, paper_relation_counts_pending, paper_facet_counts_monthly, paper_facet_counts_monthly_pending, paper_organism_counts_monthly, paper_organism_counts_monthly_pending, paper_relation_counts_monthly, paper_relation_counts_monthly_pending, claim_facet_counts, claim_facet_counts_pending;
  elsif tg_table_name in ('paper_entities', 'entities') then
    truncate paper_organism_counts, paper_organism_counts_pending, paper_organism_counts_monthly, paper_organism_counts_monthly_pending;
  else
    truncate paper_relation_counts, paper_relation_counts_pending, paper_relation_counts_monthly, paper_relation_counts_monthly_pending,
      claim_facet_counts, claim_facet_counts_pending;
  end if;
  return null;
end $$;
--> statement-breakpoint
-- Pending changes folded into the counts, returning how many count rows changed. One compaction at a
-- time (an advisory lock), so the counts' rows have a single writer and no two compactions deadlock.
-- Rows a running writer has not committed yet are left for the next compaction.
CREATE FUNCTION facet_counts_compact() RETURNS integer LANGUAGE plpgsql AS $$
declare
  folded integer := 0;
  k integer;
  c record;
begin
  perform pg_advisory_xact_lock(hashtext('geroscope.facet_counts_compact'));
  for c in select * from (values
      ('paper_facet_counts', 'indexed_date, topic, study_type, preprint, relevance_band'),
      ('paper_organism_counts', 'indexed_date, topic, study_type, preprint, relevance_band, organism'),
      ('paper_relation_counts', 'indexed_date, topic, study_type, preprint, relevance_band, relation'),
      ('paper_facet_counts_monthly', 'indexed_month, topic, study_type, preprint, relevance_band'),
      ('paper_organism_counts_monthly', 'indexed_month, topic, study_type, preprint, relevance_band, organism'),
      ('paper_relation_counts_monthly', 'indexed_month, topic, study_type, preprint, relevance_band, relation'),
      ('claim_facet_counts', 'relation, organism, topic, study_type, preprint, indexed_month')) as counts (name, keys) loop
    execute format('with moved as (delete from %1$I returning %2$s, n)
      insert into %3$I as t (%2$s, n) select %2$s, sum(n)::int from moved group by %2$s having sum(n) <> 0 order by %2$s
      on conflict on constraint %4$I do update set n = t.n + excluded.n', c.name || '_pending', c.keys, c.name, c.name || '_key');
    get diagnostics k = row_count;
    folded := folded + k;
  end loop;
  return folded;
end $$;
