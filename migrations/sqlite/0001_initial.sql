-- gridstore schema, version 1: named tile grids, their sections, tile sizes and packed placements.
-- Inspect a database with: sqlite3 ~/.local/share/gridstore/gridstore.sqlite
--   SELECT * FROM grids;
--   SELECT * FROM placements WHERE grid = 'default';

-- A named grid. layout_type follows from columns: 4 is 'less', 6 is 'more', any other count is 'custom'.
-- revision grows by one with every change to the grid, its sections or its sizes.
CREATE TABLE grids (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 255),
    columns       INTEGER NOT NULL CHECK (columns BETWEEN 1 AND 64),
    layout_type   TEXT    NOT NULL GENERATED ALWAYS AS (
                      CASE columns WHEN 4 THEN 'less' WHEN 6 THEN 'more' ELSE 'custom' END
                  ) VIRTUAL,
    direction     TEXT    NOT NULL DEFAULT 'vertical' CHECK (direction IN ('vertical', 'horizontal')),
    default_size  TEXT    NOT NULL DEFAULT 'small' CHECK (default_size IN ('small', 'middle', 'big')),
    revision      INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- The sections of a grid, numbered from 0, each with its number of items.
CREATE TABLE sections (
    grid_id     INTEGER NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    section     INTEGER NOT NULL CHECK (section >= 0),
    item_count  INTEGER NOT NULL CHECK (item_count >= 0),
    PRIMARY KEY (grid_id, section)
) STRICT, WITHOUT ROWID;

-- Sizes set explicitly, like keys in UserDefaults. An item without a row has its grid's default_size.
CREATE TABLE item_sizes (
    grid_id  INTEGER NOT NULL,
    section  INTEGER NOT NULL,
    item     INTEGER NOT NULL CHECK (item >= 0),
    size     TEXT    NOT NULL CHECK (size IN ('small', 'middle', 'big')),
    PRIMARY KEY (grid_id, section, item),
    FOREIGN KEY (grid_id, section) REFERENCES sections (grid_id, section) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

-- The packed layout of every item, computed by gridstore after each change.
-- Stored in chunks of consecutive items, so a change rewrites only the chunks whose tiles moved;
-- cells is a JSON array with one [x, y, w, h, size] per item, in cells, starting at first_item.
-- gridstore writes it and never reads it back (it re-packs from the sizes), so it is not CHECKed with
-- json_valid(), which would parse every chunk written. Read it through the placements view.
CREATE TABLE placement_chunks (
    grid_id     INTEGER NOT NULL,
    section     INTEGER NOT NULL,
    first_item  INTEGER NOT NULL CHECK (first_item >= 0),
    cells       TEXT    NOT NULL,
    PRIMARY KEY (grid_id, section, first_item),
    FOREIGN KEY (grid_id, section) REFERENCES sections (grid_id, section) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

-- One row per item: where its tile sits, in cells. For a horizontal grid x runs along the scroll axis.
CREATE VIEW placements AS
SELECT grids.name                         AS grid,
       chunk.section                      AS section,
       chunk.first_item + cell.key        AS item,
       json_extract(cell.value, '$[4]')   AS size,
       json_extract(cell.value, '$[0]')   AS x,
       json_extract(cell.value, '$[1]')   AS y,
       json_extract(cell.value, '$[2]')   AS w,
       json_extract(cell.value, '$[3]')   AS h
FROM placement_chunks AS chunk
JOIN grids ON grids.id = chunk.grid_id
JOIN json_each(chunk.cells) AS cell
ORDER BY chunk.grid_id, chunk.section, chunk.first_item, cell.key;
