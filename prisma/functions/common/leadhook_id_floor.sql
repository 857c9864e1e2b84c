-- leadhook_id_floor: the smallest id of a kind made at a time, as packages/db
-- idFloor (docs/operations.md, "History partitions").
--
--   Takes:
--     p_prefix (the kind's prefix: 'act', 'dlv', ...), p_at
--   Returns:
--     p_prefix || '_' || the 10-character ULID time of p_at (ms, Crockford
--     base32, lower case) || sixteen '0': every id of the kind made at p_at or
--     later sorts at or above it, every id made before sorts below
--   Guarantees:
--     - the bounds of the history tables' monthly partitions are these values,
--       so a partition holds exactly the rows whose ids were made in its month
CREATE OR REPLACE FUNCTION leadhook_id_floor(p_prefix text, p_at timestamptz) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  v_time bigint := floor(extract(epoch FROM p_at) * 1000)::bigint;
  v_id text := '';
BEGIN
  IF v_time < 0 THEN
    v_time := 0;
  END IF;
  FOR i IN 1..10 LOOP
    v_id := substr(v_alphabet, (v_time % 32)::int + 1, 1) || v_id;
    v_time := v_time / 32;
  END LOOP;
  RETURN p_prefix || '_' || v_id || '0000000000000000';
END $$;
