-- gridstore schema for PostgreSQL, version 9: sync, one grid kept on several databases (see
-- docs/sync.md), as SQLite has since its version 8. Every database is a replica with an id of its
-- own, minted here: 32 lowercase hexadecimal digits. storage_identity is the cluster's system
-- identifier and the database's oid where the id was minted; a restored dump of the database is
-- another database, so gridstore gives it an id of its own before its first sync. Read it with:
--   SELECT id FROM replica;
CREATE TABLE replica (
    only_row          integer PRIMARY KEY CHECK (only_row = 1),
    id                text    NOT NULL CHECK (id ~ '^[0-9a-f]{32}$'),
    storage_identity  text    NOT NULL DEFAULT ''
);

INSERT INTO replica (only_row, id) VALUES (1, replace(gen_random_uuid()::text, '-', ''));

-- Each synced grid's state as sync sees it, as of the grid's revision `revision`: the replica id
-- its changes here are made as (one of its own: a grid dropped and made again is another grid),
-- the database's replica id when it was minted (a restored dump mints another), its registers
-- (state: a sync bundle of everything, the JSON of docs/sync.md), what it knows of every
-- replica's changes (versions: `<replica>:<time>` entries, comma-separated), its hybrid clock's
-- latest reading, and how many conflicts it holds. Changes made after `revision` are read from
-- the history at the next sync.
CREATE TABLE sync_states (
    grid_id           bigint  PRIMARY KEY REFERENCES grids (id) ON DELETE CASCADE,
    replica           text    NOT NULL CHECK (replica ~ '^[0-9a-f]{32}$'),
    database_replica  text    NOT NULL,
    revision   bigint  NOT NULL CHECK (revision >= 0),
    clock      bigint  NOT NULL CHECK (clock >= 0),
    versions   text    NOT NULL,
    conflicts  bigint  NOT NULL CHECK (conflicts >= 0),
    state      text    NOT NULL
);

-- A history entry of kind 'merge' is a sync that changed the grid: its operation names the
-- replica whose changes it brought. Undo takes back this replica's own changes made since, never a merge.
ALTER TABLE history DROP CONSTRAINT history_kind_check;
ALTER TABLE history ADD CONSTRAINT history_kind_check CHECK (kind IN ('change', 'undo', 'redo', 'revert', 'merge'));
