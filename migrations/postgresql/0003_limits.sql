-- gridstore schema for PostgreSQL, version 3: the limits gridstore enforces on input, as CHECKs,
-- so that no client can store a grid gridstore would refuse to read.
-- (The SQLite schema cannot add CHECKs without rebuilding its tables; there gridstore checks
-- every value it reads instead.)
ALTER TABLE sections ADD CONSTRAINT sections_item_count_limit CHECK (item_count <= 1000000);
ALTER TABLE item_sizes ADD CONSTRAINT item_sizes_section_check CHECK (section >= 0);
ALTER TABLE grids ADD CONSTRAINT grids_revision_limit CHECK (revision < 9223372036854775807);
