-- gridstore schema for PostgreSQL, version 10: a synced grid's sync state as rows, one per
-- register, instead of one JSON text, as SQLite has since its version 9 (see docs/database.md).
-- A sync reads and writes only the registers that changed, and a peer's bundle is read with a
-- range query on the version index.

-- The replicas a grid's registers name, numbered from 0 for that grid: a register names a
-- replica by its number.
CREATE TABLE sync_replicas (
    grid_id  bigint  NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    number   integer NOT NULL CHECK (number >= 0),
    id       text    NOT NULL,
    PRIMARY KEY (grid_id, number)
);

-- One row per register: the grid's options (kind 'grid', entity '', field columns, direction,
-- defaultSize or honeycomb), a section's place and existence (kind 'section', field o or a), an
-- item's place, size, key and existence (kind 'item', field p, s, k or a). entity is the
-- section's or item's sync id, 16 hexadecimal digits. register holds the register's writes not
-- replaced, latest first, as docs/sync.md writes them in a format 1 bundle:
-- [[value,time,replica number],…] and {"seen":[[replica number,time],…]} for the replicas whose
-- latest write was replaced. version is the grid's sync version (sync_states.version) at which
-- the register last changed here.
CREATE TABLE sync_registers (
    grid_id   bigint  NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    kind      text    NOT NULL CHECK (kind IN ('grid', 'section', 'item')),
    entity    text    NOT NULL,
    field     text    NOT NULL,
    register  text    NOT NULL,
    version   bigint  NOT NULL CHECK (version > 0),
    PRIMARY KEY (grid_id, kind, entity, field)
);

CREATE INDEX sync_registers_by_version ON sync_registers (grid_id, version);

-- What the grid's registers knew at each of its latest sync versions (`<replica>:<time>`
-- entries, comma-separated): every register at that version or before holds no write past it.
-- A peer whose cursor covers an entry lacks only the registers changed after its version.
CREATE TABLE sync_versions (
    grid_id   bigint  NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    version   bigint  NOT NULL CHECK (version > 0),
    versions  text    NOT NULL,
    PRIMARY KEY (grid_id, version)
);

ALTER TABLE sync_states ADD COLUMN version bigint NOT NULL DEFAULT 1 CHECK (version >= 0);
ALTER TABLE sync_states ALTER COLUMN version DROP DEFAULT;

-- A state in the shape gridstore wrote becomes its rows, each register's text as it was. Anything
-- else is kept whole as one row gridstore does not read ('grid', '', 'state'): the grid's sync
-- is refused as damaged, and `gridstore check` says how to take it again from a peer.
DO $$
DECLARE
    stored record;
    state json;
BEGIN
    FOR stored IN SELECT grid_id, sync_states.state AS text FROM sync_states LOOP
        BEGIN
            state := stored.text::json;
            IF json_typeof(state -> 'replicas') IS DISTINCT FROM 'array' OR json_typeof(state -> 'options') IS DISTINCT FROM 'object'
               OR json_typeof(state -> 'sections') IS DISTINCT FROM 'object' OR json_typeof(state -> 'items') IS DISTINCT FROM 'object'
               OR EXISTS (SELECT 1 FROM json_array_elements(state -> 'replicas') AS replica WHERE json_typeof(replica) <> 'string')
               OR EXISTS (SELECT 1 FROM json_each(state -> 'sections') AS entity WHERE json_typeof(entity.value) <> 'object')
               OR EXISTS (SELECT 1 FROM json_each(state -> 'items') AS entity WHERE json_typeof(entity.value) <> 'object') THEN
                state := NULL;
            END IF;
        EXCEPTION WHEN others THEN
            state := NULL;
        END;
        IF state IS NULL THEN
            INSERT INTO sync_registers (grid_id, kind, entity, field, register, version)
                VALUES (stored.grid_id, 'grid', '', 'state', stored.text, 1);
            CONTINUE;
        END IF;
        INSERT INTO sync_replicas (grid_id, number, id)
            SELECT stored.grid_id, replica.number - 1, replica.id
            FROM json_array_elements_text(state -> 'replicas') WITH ORDINALITY AS replica (id, number)
            ON CONFLICT DO NOTHING;
        INSERT INTO sync_registers (grid_id, kind, entity, field, register, version)
            SELECT stored.grid_id, 'grid', '', option.key, option.value::text, 1 FROM json_each(state -> 'options') AS option
            ON CONFLICT DO NOTHING;
        INSERT INTO sync_registers (grid_id, kind, entity, field, register, version)
            SELECT stored.grid_id, entities.kind, entity.key, field.key, field.value::text, 1
            FROM (VALUES ('section', state -> 'sections'), ('item', state -> 'items')) AS entities (kind, value),
                 json_each(entities.value) AS entity, json_each(entity.value) AS field
            ON CONFLICT DO NOTHING;
    END LOOP;
END
$$;

ALTER TABLE sync_states DROP COLUMN state;
