-- gridstore schema for PostgreSQL, version 1: named tile grids, their sections, tile sizes and packed placements.
-- The same tables as the SQLite schema. Inspect a database with psql:
--   SELECT * FROM grids;
--   SELECT * FROM placements WHERE grid = 'default';
-- Every table but grids is keyed by grid_id first, and every statement of a change touches one grid,
-- so the tables can be distributed by grid (see the README).

-- A named grid. layout_type follows from columns: 4 is 'less', 6 is 'more', any other count is 'custom'.
-- revision grows by one with every change to the grid, its sections or its sizes.
CREATE TABLE grids (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          text        NOT NULL UNIQUE CHECK (char_length(name) BETWEEN 1 AND 255),
    columns       integer     NOT NULL CHECK (columns BETWEEN 1 AND 64),
    layout_type   text        NOT NULL GENERATED ALWAYS AS (
                      CASE columns WHEN 4 THEN 'less' WHEN 6 THEN 'more' ELSE 'custom' END
                  ) STORED,
    direction     text        NOT NULL DEFAULT 'vertical' CHECK (direction IN ('vertical', 'horizontal')),
    default_size  text        NOT NULL DEFAULT 'small' CHECK (default_size IN ('small', 'middle', 'big')),
    revision      bigint      NOT NULL DEFAULT 0 CHECK (revision >= 0),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

-- The sections of a grid, numbered from 0, each with its number of items.
CREATE TABLE sections (
    grid_id     bigint  NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    section     integer NOT NULL CHECK (section >= 0),
    item_count  integer NOT NULL CHECK (item_count >= 0),
    PRIMARY KEY (grid_id, section)
);

-- Sizes set explicitly, like keys in UserDefaults. An item without a row has its grid's default_size.
CREATE TABLE item_sizes (
    grid_id  bigint  NOT NULL,
    section  integer NOT NULL,
    item     integer NOT NULL CHECK (item >= 0),
    size     text    NOT NULL CHECK (size IN ('small', 'middle', 'big')),
    PRIMARY KEY (grid_id, section, item),
    FOREIGN KEY (grid_id, section) REFERENCES sections (grid_id, section) ON DELETE CASCADE
);

-- The packed layout of every item, computed by gridstore after each change.
-- Stored in chunks of consecutive items, so a change rewrites only the chunks whose tiles moved;
-- cells is a JSON array with one [x, y, w, h, size] per item, in cells, starting at first_item.
-- gridstore writes it and never reads it back (it re-packs from the sizes). Read it through the placements view.
CREATE TABLE placement_chunks (
    grid_id     bigint  NOT NULL,
    section     integer NOT NULL,
    first_item  integer NOT NULL CHECK (first_item >= 0),
    cells       text    NOT NULL,
    PRIMARY KEY (grid_id, section, first_item),
    FOREIGN KEY (grid_id, section) REFERENCES sections (grid_id, section) ON DELETE CASCADE
);

-- One row per item: where its tile sits, in cells. For a horizontal grid x runs along the scroll axis.
CREATE VIEW placements AS
SELECT grids.name                                    AS grid,
       chunk.section                                 AS section,
       chunk.first_item + cell.position::integer - 1 AS item,
       cell.value ->> 4                              AS size,
       (cell.value ->> 0)::integer                   AS x,
       (cell.value ->> 1)::integer                   AS y,
       (cell.value ->> 2)::integer                   AS w,
       (cell.value ->> 3)::integer                   AS h
FROM placement_chunks AS chunk
JOIN grids ON grids.id = chunk.grid_id
CROSS JOIN LATERAL jsonb_array_elements(chunk.cells::jsonb) WITH ORDINALITY AS cell (value, position)
ORDER BY chunk.grid_id, chunk.section, chunk.first_item, cell.position;
