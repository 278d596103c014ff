-- gridstore schema, version 13: the name a database goes by as a replica ("Anna's iPad"; by
-- default the host name of the machine that first synced it), and each grid's registers of the
-- names its replicas go by (kind 'replica', entity the replica id, field 'name'), synced with
-- the grid's changes and shown wherever a replica is.
ALTER TABLE replica ADD COLUMN name TEXT CHECK (name IS NULL OR length(name) BETWEEN 1 AND 64);

CREATE TABLE sync_registers_version_13 (
    grid_id   INTEGER NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    kind      TEXT    NOT NULL CHECK (kind = 'grid' OR kind = 'section' OR kind = 'item' OR kind = 'replica'),
    entity    TEXT    NOT NULL,
    field     TEXT    NOT NULL,
    register  TEXT    NOT NULL,
    version   INTEGER NOT NULL CHECK (version > 0),
    PRIMARY KEY (grid_id, kind, entity, field)
) STRICT, WITHOUT ROWID;

INSERT INTO sync_registers_version_13 (grid_id, kind, entity, field, register, version)
    SELECT grid_id, kind, entity, field, register, version FROM sync_registers;
DROP TABLE sync_registers;
ALTER TABLE sync_registers_version_13 RENAME TO sync_registers;
CREATE INDEX sync_registers_by_version ON sync_registers (grid_id, version);
