-- gridstore schema for PostgreSQL, version 14, as SQLite has since its version 13: the name a
-- database goes by as a replica ("Anna's iPad"; by default the host name of the machine that first
-- synced it), and each grid's registers of the names its replicas go by (kind 'replica', entity the
-- replica id, field 'name'), synced with the grid's changes and shown wherever a replica is.
ALTER TABLE replica ADD COLUMN name text CHECK (name IS NULL OR char_length(name) BETWEEN 1 AND 64);

ALTER TABLE sync_registers DROP CONSTRAINT sync_registers_kind_check,
    ADD CONSTRAINT sync_registers_kind_check CHECK (kind IN ('grid', 'section', 'item', 'replica'));
