-- What is kept of a rejected submission is reason codes and our own field names,
-- never a value or anything else the seller wrote (docs/intake.md). Intake now
-- writes rejections that way (insertRejected, rejectionReasons); this removes
-- what earlier versions kept:
--
-- * submissions of result 'rejected': external_id and user_agent (free text the
--   rejected request chose) are cleared, and each reason whose field is not one
--   of the 17 lead fields becomes {"field": null, "code": "unknown_field"} (or
--   too_many_fields), each reason once, in first-seen order. A JSON body posted as
--   a form had made the whole lead one "field" name, kept in the source's stats.
-- * idempotency_keys: the key becomes its SHA-256 (hex, of its UTF-8 bytes), as
--   intake now stores and looks it up (idempotencyKeyDigest), and a stored 422
--   names no field of the seller's own (field null), as storedResponseOf now
--   stores it.
--
-- Safe to run twice: a sanitized reason list is unchanged by it, and a key is
-- hashed only while it is not already 64 hex digits.

CREATE FUNCTION pg_temp.lead_field(name text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT name = ANY (ARRAY[
    'first_name', 'last_name', 'email', 'phone', 'current_insurance_carrier',
    'current_insurance_coverage', 'current_residence_address', 'current_residence_city',
    'current_residence_state', 'current_residence_zip', 'date_of_birth', 'gender',
    'marital_status', 'credit_rating', 'tcpa_opt_in_token', 'tcpa_opt_in_url', 'external_id'])
$$;

-- A reason list as it may be stored: lead fields and codes, each reason once.
CREATE FUNCTION pg_temp.stored_reasons(errors jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_agg(r.reason ORDER BY r.first), '[]'::jsonb)
    FROM (
      SELECT x.reason, min(x.n) AS first
        FROM (
          SELECT CASE
                   WHEN pg_temp.lead_field(e ->> 'field')
                     THEN jsonb_build_object('field', e ->> 'field', 'code', e ->> 'code')
                   ELSE jsonb_build_object(
                     'field', NULL,
                     'code', CASE WHEN e ->> 'code' = 'too_many_fields'
                                  THEN 'too_many_fields' ELSE 'unknown_field' END)
                 END AS reason,
                 t.n
            FROM jsonb_array_elements(
                   CASE jsonb_typeof(errors) WHEN 'array' THEN errors ELSE '[]'::jsonb END
                 ) WITH ORDINALITY AS t(e, n)
        ) x
       GROUP BY x.reason
    ) r
$$;

-- A stored 422 answer: the seller's own field names become null, codes and messages kept.
CREATE FUNCTION pg_temp.stored_answer(body jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
           WHEN jsonb_typeof(body -> 'errors') <> 'array' THEN body
           ELSE jsonb_set(body, '{errors}', coalesce((
             SELECT jsonb_agg(
                      CASE WHEN pg_temp.lead_field(e ->> 'field') OR jsonb_typeof(e -> 'field') = 'null'
                           THEN e
                           ELSE jsonb_set(e, '{field}', 'null'::jsonb) END
                      ORDER BY t.n)
               FROM jsonb_array_elements(body -> 'errors') WITH ORDINALITY AS t(e, n)
           ), '[]'::jsonb))
         END
$$;

UPDATE submissions
   SET external_id = NULL,
       user_agent = NULL,
       errors = pg_temp.stored_reasons(errors)
 WHERE result = 'rejected'
   AND (external_id IS NOT NULL
        OR user_agent IS NOT NULL
        OR errors IS DISTINCT FROM pg_temp.stored_reasons(errors));

UPDATE idempotency_keys
   SET key = encode(sha256(convert_to(key, 'UTF8')), 'hex')
 WHERE key !~ '^[0-9a-f]{64}$';

UPDATE idempotency_keys
   SET response_body = pg_temp.stored_answer(response_body)
 WHERE status_code = 422
   AND response_body IS DISTINCT FROM pg_temp.stored_answer(response_body);
