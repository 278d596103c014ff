-- gridstore schema for PostgreSQL, version 5: a honeycomb's ring order and edge-scaling curve.
-- ring_order is 'standard' (each ring starts to the right of the center) or 'original' (one side
-- further round, as the original iOS layout's ring 1); scaling is the curve a drawing with a
-- viewport uses unless told otherwise: 'linear', 'smooth' or 'original' (max(minimum, depth / distance)).
ALTER TABLE honeycombs ADD COLUMN ring_order text NOT NULL DEFAULT 'standard'
    CHECK (ring_order IN ('standard', 'original'));
ALTER TABLE honeycombs ADD COLUMN scaling text NOT NULL DEFAULT 'linear'
    CHECK (scaling IN ('linear', 'smooth', 'original'));
