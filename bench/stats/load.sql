-- Scratch data for bench/stats: one account, its playbook, the measured source
-- (:'n' submissions spread evenly over the 365 days before :'end_at') and a second
-- source of the same account (:'others' submissions over the same year) so the
-- scans must pick the source's rows out of the account's. psql variables: acc, pb, src, src2, n, others, end_at.
-- Results: 80 % accepted (a lead each), 10 % duplicate (of an earlier lead),
-- 10 % rejected with one to three (field, code) reasons; 30 % of the leads reach an
-- outcome one day after arriving (9 labels round robin).
-- Submissions and activities get ids of the service's form made at their time
-- (leadhook_id_floor's prefix and ULID time, then the row number), so each row
-- lands in its month's partition: the year's thirteen monthly partitions are made
-- first, as the partition job would have made them.
\set ON_ERROR_STOP on
BEGIN;
SELECT count(*) AS partitions_made FROM leadhook_history_partitions_ensure(
  :'end_at'::timestamptz - interval '367 days', :'end_at'::timestamptz + interval '1 day') \gset
INSERT INTO accounts (id, name) VALUES (:'acc', 'bench stats');
INSERT INTO playbooks (id, account_id, name, steps) VALUES (:'pb', :'acc', 'bench', '[]');
INSERT INTO marketing_sources (id, account_id, playbook_id, name, source_type, intake_key)
VALUES (:'src', :'acc', :'pb', 'measured', 'vendor', md5(random()::text) || md5(random()::text)),
       (:'src2', :'acc', :'pb', 'other', 'affiliate', md5(random()::text) || md5(random()::text));

CREATE TEMP TABLE gen AS
SELECT i,
       CASE WHEN i <= :n THEN :'src' ELSE :'src2' END AS source_id,
       -- each source's submissions evenly over the year, the newest first
       :'end_at'::timestamptz
         - CASE WHEN i <= :n THEN i * (interval '365 days' / :n)
                ELSE (i - :n) * (interval '365 days' / greatest(:others, 1)) END
         - ((i::bigint * 7919) % 1000) * interval '1 ms' AS at,
       CASE WHEN i % 10 = 0 THEN 'rejected' WHEN i % 10 = 5 THEN 'duplicate' ELSE 'accepted' END AS result
FROM generate_series(1, :n + :others) AS i;

INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                   first_name, last_name, fields, canonical, tcpa_opt_in_token, tcpa_opt_in_url,
                   received_at, created_at, updated_at)
SELECT 'lead_' || lpad(i::text, 26, '0'), :'acc', source_id, 'measured', :'pb',
       '+1555' || lpad(i::text, 7, '0'), 'l' || i || '@example.test', 'Bench', 'Lead',
       '{}', '{}', 'tok', 'https://example.test/optin', at, at, at
FROM gen WHERE result = 'accepted';

INSERT INTO submissions (id, account_id, source_id, result, lead_id, errors, created_at)
SELECT left(leadhook_id_floor('subm', at), 15) || lpad(i::text, 16, '0'), :'acc', source_id, result,
       CASE result WHEN 'accepted' THEN 'lead_' || lpad(i::text, 26, '0')
                   WHEN 'duplicate' THEN 'lead_' || lpad((i - 4)::text, 26, '0') END,
       CASE WHEN result = 'rejected' THEN
         (SELECT jsonb_agg(jsonb_build_object('field', f, 'code', c))
          FROM (VALUES ('phone', 'invalid', 0), ('email', 'invalid', 1), ('current_residence_zip', 'invalid', 2),
                       ('date_of_birth', 'required', 3), ('tcpa_opt_in_url', 'invalid', 4)) AS r(f, c, k)
          WHERE k = (i / 10) % 5 OR k = (i / 10 + 2) % 7 OR (k = 4 AND i % 30 = 0))
       END,
       at
-- a duplicate (i % 10 = 5) points at lead i - 4 (i % 10 = 1: accepted)
FROM gen;

INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note, occurred_at, created_at)
SELECT left(leadhook_id_floor('act', at + interval '1 day'), 14) || lpad(i::text, 16, '0'),
       :'acc', 'lead_' || lpad(i::text, 26, '0'), 'outcome',
       (ARRAY['qualified','unqualified','interested','not_interested','callback_requested',
              'party_line_completed','opted_out','undeliverable','unreachable'])[1 + (i / 3) % 9],
       'bench outcome', at + interval '1 day', at + interval '1 day'
FROM gen WHERE result = 'accepted' AND i % 3 = 0 AND at + interval '1 day' < :'end_at'::timestamptz;
COMMIT;
VACUUM ANALYZE accounts, marketing_sources, leads, submissions, activities;
