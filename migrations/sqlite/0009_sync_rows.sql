-- gridstore schema, version 9: a synced grid's sync state as rows, one per register, instead of
-- one JSON text (see docs/database.md). A sync reads and writes only the registers that changed,
-- and a peer's bundle is read with a range query on the version index.

-- The replicas a grid's registers name, numbered from 0 for that grid: a register names a
-- replica by its number.
CREATE TABLE sync_replicas (
    grid_id  INTEGER NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    number   INTEGER NOT NULL CHECK (number >= 0),
    id       TEXT    NOT NULL,
    PRIMARY KEY (grid_id, number)
) STRICT, WITHOUT ROWID;

-- One row per register: the grid's options (kind 'grid', entity '', field columns, direction,
-- defaultSize or honeycomb), a section's place and existence (kind 'section', field o or a), an
-- item's place, size, key and existence (kind 'item', field p, s, k or a). entity is the
-- section's or item's sync id, 16 hexadecimal digits. register holds the register's writes not
-- replaced, latest first, as docs/sync.md writes them in a format 1 bundle:
-- [[value,time,replica number],…] and {"seen":[[replica number,time],…]} for the replicas whose
-- latest write was replaced. version is the grid's sync version (sync_states.version) at which
-- the register last changed here.
CREATE TABLE sync_registers (
    grid_id   INTEGER NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    kind      TEXT    NOT NULL CHECK (kind = 'grid' OR kind = 'section' OR kind = 'item'),
    entity    TEXT    NOT NULL,
    field     TEXT    NOT NULL,
    register  TEXT    NOT NULL,
    version   INTEGER NOT NULL CHECK (version > 0),
    PRIMARY KEY (grid_id, kind, entity, field)
) STRICT, WITHOUT ROWID;

CREATE INDEX sync_registers_by_version ON sync_registers (grid_id, version);

-- What the grid's registers knew at each of its latest sync versions (`<replica>:<time>`
-- entries, comma-separated): every register at that version or before holds no write past it.
-- A peer whose cursor covers an entry lacks only the registers changed after its version.
CREATE TABLE sync_versions (
    grid_id   INTEGER NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    version   INTEGER NOT NULL CHECK (version > 0),
    versions  TEXT    NOT NULL,
    PRIMARY KEY (grid_id, version)
) STRICT, WITHOUT ROWID;

ALTER TABLE sync_states RENAME TO sync_states_before_version_9;

-- Each synced grid's sync state as of the grid's revision `revision`: see version 8; its
-- registers are in sync_registers, and version is the latest of their versions.
CREATE TABLE sync_states (
    grid_id           INTEGER PRIMARY KEY REFERENCES grids (id) ON DELETE CASCADE,
    replica           TEXT    NOT NULL CHECK (length(replica) = 32 AND replica NOT GLOB '*[^0-9a-f]*'),
    database_replica  TEXT    NOT NULL,
    revision   INTEGER NOT NULL CHECK (revision >= 0),
    clock      INTEGER NOT NULL CHECK (clock >= 0),
    versions   TEXT    NOT NULL,
    conflicts  INTEGER NOT NULL CHECK (conflicts >= 0),
    version    INTEGER NOT NULL CHECK (version >= 0)
) STRICT;

INSERT INTO sync_states (grid_id, replica, database_replica, revision, clock, versions, conflicts, version)
    SELECT grid_id, replica, database_replica, revision, clock, versions, conflicts, 1 FROM sync_states_before_version_9;

-- A state in the shape gridstore wrote becomes its rows, each register's text as it was. Anything
-- else is kept whole as one row gridstore does not read ('grid', '', 'state'): the grid's sync
-- is refused as damaged, and `gridstore check` says how to take it again from a peer.
CREATE TEMPORARY TABLE sync_states_readable AS
    SELECT grid_id, state FROM sync_states_before_version_9
    WHERE json_valid(state) AND json_type(state, '$.replicas') = 'array' AND json_type(state, '$.options') = 'object'
          AND json_type(state, '$.sections') = 'object' AND json_type(state, '$.items') = 'object'
          AND NOT EXISTS (SELECT 1 FROM json_each(state, '$.replicas') WHERE type <> 'text')
          AND NOT EXISTS (SELECT 1 FROM json_each(state, '$.sections') WHERE type <> 'object')
          AND NOT EXISTS (SELECT 1 FROM json_each(state, '$.items') WHERE type <> 'object');

INSERT OR IGNORE INTO sync_replicas (grid_id, number, id)
    SELECT grid_id, replica.key, replica.value FROM sync_states_readable, json_each(state, '$.replicas') AS replica;

INSERT OR IGNORE INTO sync_registers (grid_id, kind, entity, field, register, version)
    SELECT grid_id, 'grid', '', option.key, option.value, 1 FROM sync_states_readable, json_each(state, '$.options') AS option;

INSERT OR IGNORE INTO sync_registers (grid_id, kind, entity, field, register, version)
    SELECT grid_id, 'section', entity.key, field.key, field.value, 1
    FROM sync_states_readable, json_each(state, '$.sections') AS entity, json_each(entity.value) AS field;

INSERT OR IGNORE INTO sync_registers (grid_id, kind, entity, field, register, version)
    SELECT grid_id, 'item', entity.key, field.key, field.value, 1
    FROM sync_states_readable, json_each(state, '$.items') AS entity, json_each(entity.value) AS field;

INSERT OR IGNORE INTO sync_registers (grid_id, kind, entity, field, register, version)
    SELECT grid_id, 'grid', '', 'state', state, 1 FROM sync_states_before_version_9
    WHERE grid_id NOT IN (SELECT grid_id FROM sync_states_readable);

DROP TABLE sync_states_readable;
DROP TABLE sync_states_before_version_9;
