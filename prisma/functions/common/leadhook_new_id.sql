-- leadhook_new_id: a prefixed ULID id, the form of packages/db newId().
--
--   Takes:
--     p_prefix  the id's prefix (e.g. 'dlv')
--   Returns:
--     prefix, '_', 26 lower-case Crockford base32 characters: 48 bits of
--     millisecond time and 80 random bits from gen_random_uuid() (skipping the
--     UUID's version and variant bytes)
--   Guarantees:
--     - no lock, no write; ids made in one millisecond are not ordered among
--       themselves (newId's are, within a process)
CREATE OR REPLACE FUNCTION leadhook_new_id(p_prefix text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  v_time bigint := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint;
  v_random bytea := uuid_send(gen_random_uuid());
  v_id text := '';
  v_part text;
  v_bits bigint;
BEGIN
  FOR i IN 1..10 LOOP
    v_id := substr(v_alphabet, (v_time % 32)::int + 1, 1) || v_id;
    v_time := v_time / 32;
  END LOOP;
  FOREACH v_bits IN ARRAY ARRAY[0, 9] LOOP
    -- 40 bits from bytes v_bits .. v_bits + 4 (0-4, then 9-13), as 8 characters
    v_bits := (get_byte(v_random, v_bits::int)::bigint << 32)
            | (get_byte(v_random, v_bits::int + 1)::bigint << 24)
            | (get_byte(v_random, v_bits::int + 2)::bigint << 16)
            | (get_byte(v_random, v_bits::int + 3)::bigint << 8)
            | get_byte(v_random, v_bits::int + 4)::bigint;
    v_part := '';
    FOR i IN 1..8 LOOP
      v_part := substr(v_alphabet, (v_bits % 32)::int + 1, 1) || v_part;
      v_bits := v_bits / 32;
    END LOOP;
    v_id := v_id || v_part;
  END LOOP;
  RETURN p_prefix || '_' || v_id;
END $$;
