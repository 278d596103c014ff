-- gridstore schema, version 7: explicit sizes stored in chunks, read as rows through the item_sizes view.
-- Every change loads its grid's sizes, and reading a row costs SQLite about 1,000 instructions: a
-- row per explicit size was most of a `gridstore toggle` on a 10,000-item grid. size_chunks holds the
-- sizes of up to 256 consecutive items of a section, from first_item (a multiple of 256), in one text
-- with a letter per item: 's' small, 'm' middle, 'b' big, or '.' for an item that has its grid's
-- default_size. A chunk's text ends at its last explicit size, and a chunk without one has no row.
-- Read the sizes one row per item, as before version 7, through the item_sizes view:
--   SELECT section, item, size FROM item_sizes WHERE grid_id = (SELECT id FROM grids WHERE name = 'default');
CREATE TABLE size_chunks (
    grid_id     INTEGER NOT NULL,
    section     INTEGER NOT NULL,
    first_item  INTEGER NOT NULL CHECK (first_item >= 0 AND first_item % 256 = 0),
    sizes       TEXT    NOT NULL CHECK (length(sizes) BETWEEN 1 AND 256 AND sizes NOT GLOB '*[^.smb]*'
                                        AND sizes NOT GLOB '*.'),
    PRIMARY KEY (grid_id, section, first_item),
    FOREIGN KEY (grid_id, section) REFERENCES sections (grid_id, section) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

-- Each size row becomes its letter, after a '.' for each item of its chunk without a row before it.
-- A size other than the three becomes '?', which the CHECK refuses: the migration fails, and is
-- rolled back, rather than drop a row it cannot read.
WITH letters AS (
    SELECT grid_id, section, item, item - item % 256 AS first_item,
           replace(printf('%*s', item - coalesce(lag(item) OVER chunk, item - item % 256 - 1) - 1, ''), ' ', '.')
               || CASE size WHEN 'small' THEN 's' WHEN 'middle' THEN 'm' WHEN 'big' THEN 'b' ELSE '?' END AS letters
    FROM item_sizes
    WINDOW chunk AS (PARTITION BY grid_id, section, item - item % 256 ORDER BY item)
), chunks AS (
    SELECT grid_id, section, first_item,
           group_concat(letters, '') OVER (PARTITION BY grid_id, section, first_item ORDER BY item
                                           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS sizes,
           row_number() OVER (PARTITION BY grid_id, section, first_item ORDER BY item) AS position
    FROM letters
)
INSERT INTO size_chunks (grid_id, section, first_item, sizes)
    SELECT grid_id, section, first_item, sizes FROM chunks WHERE position = 1;

DROP TABLE item_sizes;

-- Sizes set explicitly, like keys in UserDefaults, one row per item: an item without a row has its
-- grid's default_size. Read-only: gridstore writes sizes (gridstore set, toggle, import).
CREATE VIEW item_sizes (grid_id, section, item, size) AS
WITH RECURSIVE offsets (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM offsets WHERE n < 255)
SELECT grid_id, section, first_item + n,
       CASE substr(sizes, n + 1, 1) WHEN 's' THEN 'small' WHEN 'm' THEN 'middle' WHEN 'b' THEN 'big' END
FROM size_chunks JOIN offsets ON n < length(sizes)
WHERE substr(sizes, n + 1, 1) <> '.'
ORDER BY grid_id, section, first_item + n;
