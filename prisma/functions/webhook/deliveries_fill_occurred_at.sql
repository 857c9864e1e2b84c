-- deliveries_fill_occurred_at: a BEFORE INSERT trigger on deliveries that
-- copies the activity's occurred_at into activity_occurred_at when an insert
-- leaves it out, so a chain's head is the first entry of deliveries_chain_idx.
--
--   Guarantees:
--     - every delivery row has its activity's time, whoever inserts it
CREATE OR REPLACE FUNCTION deliveries_fill_occurred_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.activity_occurred_at IS NULL THEN
    SELECT occurred_at INTO NEW.activity_occurred_at FROM activities WHERE id = NEW.activity_id;
  END IF;
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER deliveries_fill_occurred_at BEFORE INSERT ON deliveries
FOR EACH ROW EXECUTE FUNCTION deliveries_fill_occurred_at();
