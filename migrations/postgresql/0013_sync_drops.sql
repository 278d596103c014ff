-- gridstore schema for PostgreSQL, version 13: grids dropped after they took part in sync, as
-- SQLite has since its version 12: by name, with what each knew of every replica's changes when it
-- was dropped (versions: `<replica>:<time>` entries, comma-separated, as sync_states has them) and
-- when (milliseconds since 1970, for people). A sync drops a peer's grid of that name that knows no
-- change the drop did not know, and brings a grid back only from a peer that changed it since
-- (docs/sync.md, "Dropping a grid"). A grid made again under the name is another grid, with a
-- replica of its own, which no drop ever covers.
CREATE TABLE sync_drops (
    name        text    PRIMARY KEY CHECK (char_length(name) BETWEEN 1 AND 255),
    versions    text    NOT NULL CHECK (char_length(versions) BETWEEN 1 AND 530000),
    dropped_at  bigint  NOT NULL CHECK (dropped_at >= 0)
);
