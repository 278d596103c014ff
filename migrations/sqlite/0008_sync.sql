-- gridstore schema, version 8: sync, one grid kept on several databases (see docs/sync.md).
-- Every database is a replica with an id of its own, minted here (or when the database is
-- created): 32 lowercase hexadecimal digits. file_identity is the device and inode of the file
-- the id was minted for; a copy of the file is another file, so gridstore gives it an id of its
-- own before its first sync (a copy must not pose as the original). Read it with:
--   SELECT id FROM replica;
CREATE TABLE replica (
    only_row       INTEGER PRIMARY KEY CHECK (only_row = 1),
    id             TEXT    NOT NULL CHECK (length(id) = 32 AND id NOT GLOB '*[^0-9a-f]*'),
    file_identity  TEXT    NOT NULL DEFAULT ''
) STRICT;

INSERT INTO replica (only_row, id) VALUES (1, lower(hex(randomblob(16))));

-- Each synced grid's state as sync sees it, as of the grid's revision `revision`: the replica id
-- its changes here are made as (one of its own: a grid dropped and made again is another grid),
-- the database's replica id when it was minted (a copy of the file mints another), its registers
-- (state: a sync bundle of everything, the JSON of docs/sync.md), what it knows of every
-- replica's changes (versions: `<replica>:<time>` entries, comma-separated), its hybrid clock's
-- latest reading, and how many conflicts it holds. Changes made after `revision` are read from
-- the history at the next sync.
CREATE TABLE sync_states (
    grid_id           INTEGER PRIMARY KEY REFERENCES grids (id) ON DELETE CASCADE,
    replica           TEXT    NOT NULL CHECK (length(replica) = 32 AND replica NOT GLOB '*[^0-9a-f]*'),
    database_replica  TEXT    NOT NULL,
    revision   INTEGER NOT NULL CHECK (revision >= 0),
    clock      INTEGER NOT NULL CHECK (clock >= 0),
    versions   TEXT    NOT NULL,
    conflicts  INTEGER NOT NULL CHECK (conflicts >= 0),
    state      TEXT    NOT NULL
) STRICT;

-- A history entry of kind 'merge' is a sync that changed the grid: its actor names the replica
-- whose changes it brought. Undo takes back this replica's own changes made since, never a merge.
ALTER TABLE history RENAME TO history_before_version_8;

-- Every change's history: see version 5.
CREATE TABLE history (
    grid_id    INTEGER NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    revision   INTEGER NOT NULL CHECK (revision > 0),
    made_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    kind       TEXT    NOT NULL CHECK (kind = 'change' OR kind = 'undo' OR kind = 'redo' OR kind = 'revert' OR kind = 'merge'),
    operation  TEXT    NOT NULL,
    actor      TEXT    NOT NULL,
    targets    TEXT    NOT NULL DEFAULT '',
    delta      TEXT    NOT NULL,
    PRIMARY KEY (grid_id, revision)
) STRICT, WITHOUT ROWID;

INSERT INTO history (grid_id, revision, made_at, kind, operation, actor, targets, delta)
    SELECT grid_id, revision, made_at, kind, operation, actor, targets, delta FROM history_before_version_8;
DROP TABLE history_before_version_8;
