-- deliveries_unqueue_on_status: a BEFORE UPDATE OF status trigger on deliveries:
-- a row whose status changes is unqueued, and its lease cleared unless it is
-- pending again.
--
--   Guarantees:
--     - a row that leaves or re-enters pending (redeliver and recover in the API)
--       is never left queued: fan-outs and records keep a chain's head unqueued
--     - a row that leaves pending keeps no lease (claimed_until)
CREATE OR REPLACE FUNCTION deliveries_unqueue_on_status() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.queued := false;
    IF NEW.status <> 'pending' THEN NEW.claimed_until := NULL; END IF;
  END IF;
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER deliveries_unqueue_on_status BEFORE UPDATE OF status ON deliveries
FOR EACH ROW EXECUTE FUNCTION deliveries_unqueue_on_status();
