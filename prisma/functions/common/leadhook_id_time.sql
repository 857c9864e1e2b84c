-- leadhook_id_time: when an id was made, read from its ULID time.
--
--   Takes:
--     p_id (prefix, '_', 26-character ULID, as packages/db newId makes)
--   Returns:
--     the time of its first 10 ULID characters; NULL for an id of another shape
--   Guarantees:
--     - leadhook_id_time(leadhook_id_floor(p, t)) = t to the millisecond
CREATE OR REPLACE FUNCTION leadhook_id_time(p_id text) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  v_ulid text := lower(substr(p_id, strpos(p_id, '_') + 1));
  v_time bigint := 0;
  v_digit integer;
BEGIN
  IF strpos(p_id, '_') = 0 OR length(v_ulid) <> 26 THEN
    RETURN NULL;
  END IF;
  FOR i IN 1..10 LOOP
    v_digit := strpos(v_alphabet, substr(v_ulid, i, 1)) - 1;
    IF v_digit < 0 THEN
      RETURN NULL;
    END IF;
    v_time := v_time * 32 + v_digit;
  END LOOP;
  RETURN to_timestamp(v_time / 1000.0);
END $$;
