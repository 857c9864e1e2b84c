-- webhook_claimed_steps: the steps of claimed deliveries: the one place that
-- builds a webhook_step from a delivery, its subscription, activity, lead,
-- source, playbook and enrollment.
--
--   Takes:
--     p_ids  the deliveries' ids
--   Returns:
--     one webhook_step per id found (claim 'claimed'), in no particular order
--   Guarantees:
--     - reads only; a plain SQL function, so PostgreSQL inlines it into the
--       calling statement, planned under the caller's settings
--     - starts from the ids (a primary-key probe each, LATERAL ... LIMIT 1): a
--       keyed read at any table size
CREATE OR REPLACE FUNCTION webhook_claimed_steps(p_ids text[])
RETURNS SETOF webhook_step LANGUAGE sql STABLE AS $$
  SELECT NULL::text, NULL::timestamptz, NULL::boolean, NULL::text,
         'claimed'::text, d.id, d.attempt_count, d.next_attempt_at,
         d.subscription_id, d.lead_id, s.url, s.secret, s.previous_secret,
         s.previous_secret_expires_at,
         a.id, a.activity_type, a.activity_label, a.occurred_at, a.note, a.data,
         a.enrollment_id,
         l.external_id, l.source_name, l.first_name, l.last_name, l.email, l.opted_out,
         l.created_at, l.extra, e.id,
         ms.id, ms.name, pb.id, pb.name
    FROM unnest(p_ids) AS k(id)
    CROSS JOIN LATERAL (SELECT x.* FROM deliveries x WHERE x.id = k.id LIMIT 1) d
    JOIN subscriptions s ON s.id = d.subscription_id
    JOIN activities a ON a.id = d.activity_id
    JOIN leads l ON l.id = d.lead_id
    JOIN marketing_sources ms ON ms.id = l.source_id
    JOIN playbooks pb ON pb.id = l.playbook_id
    LEFT JOIN enrollments e ON e.lead_id = l.id
$$;
