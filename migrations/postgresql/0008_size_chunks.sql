-- gridstore schema for PostgreSQL, version 8: explicit sizes stored in chunks, as SQLite has since
-- its version 7, read as rows through the item_sizes view. A bulk set of 100,000 sizes wrote
-- 100,000 rows (about 1 s); it now writes 391 chunks. size_chunks holds the sizes of up to 256
-- consecutive items of a section, from first_item (a multiple of 256), in one text with a letter
-- per item: 's' small, 'm' middle, 'b' big, or '.' for an item that has its grid's default_size.
-- A chunk's text ends at its last explicit size, and a chunk without one has no row.
-- Read the sizes one row per item, as before version 8, through the item_sizes view:
--   SELECT section, item, size FROM item_sizes WHERE grid_id = (SELECT id FROM grids WHERE name = 'default');
CREATE TABLE size_chunks (
    grid_id     bigint  NOT NULL,
    section     integer NOT NULL CHECK (section >= 0),
    first_item  integer NOT NULL CHECK (first_item >= 0 AND first_item % 256 = 0),
    sizes       text    NOT NULL CHECK (length(sizes) BETWEEN 1 AND 256 AND sizes ~ '^[.smb]*[smb]$'),
    PRIMARY KEY (grid_id, section, first_item),
    FOREIGN KEY (grid_id, section) REFERENCES sections (grid_id, section) ON DELETE CASCADE
);

-- Each size row becomes its letter, after a '.' for each item of its chunk without a row before it.
-- A size other than the three becomes '?', which the CHECK refuses: the migration fails, and is
-- rolled back, rather than drop a row it cannot read.
INSERT INTO size_chunks (grid_id, section, first_item, sizes)
SELECT grid_id, section, first_item, string_agg(gap || letter, '' ORDER BY item)
FROM (
    SELECT grid_id, section, item, item - item % 256 AS first_item,
           repeat('.', item - coalesce(lag(item) OVER chunk, item - item % 256 - 1) - 1) AS gap,
           CASE size WHEN 'small' THEN 's' WHEN 'middle' THEN 'm' WHEN 'big' THEN 'b' ELSE '?' END AS letter
    FROM item_sizes
    WINDOW chunk AS (PARTITION BY grid_id, section, item - item % 256 ORDER BY item)
) AS letters
GROUP BY grid_id, section, first_item;

-- The chunks hold exactly the rows: one row per item (the key may have been dropped), as many
-- sizes, each at its item with its letter. Anything else stops the migration, which is rolled
-- back with item_sizes as it was.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM item_sizes GROUP BY grid_id, section, item HAVING count(*) > 1)
       OR (SELECT count(*) FROM item_sizes)
           <> (SELECT coalesce(sum(length(replace(sizes, '.', ''))), 0) FROM size_chunks)
       OR EXISTS (SELECT 1 FROM item_sizes AS size_row
                  LEFT JOIN size_chunks AS chunk ON chunk.grid_id = size_row.grid_id AND chunk.section = size_row.section
                                                AND chunk.first_item = size_row.item - size_row.item % 256
                  WHERE chunk.sizes IS NULL
                     OR substr(chunk.sizes, size_row.item - chunk.first_item + 1, 1) IS DISTINCT FROM left(size_row.size, 1)) THEN
        RAISE EXCEPTION 'the size chunks would not hold exactly the rows of item_sizes, so nothing was converted';
    END IF;
END
$$;

-- Whom the table was granted to read, and its comment, go to the view that takes its place (writes
-- are gridstore's: the view is read-only). Kept in settings of this transaction meanwhile, which
-- needs no privilege (a temporary table would need TEMP on the database). A column's own grant
-- cannot be carried to a view's column the same way: it stops the migration instead.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'item_sizes'::regclass AND attnum > 0 AND attacl IS NOT NULL) THEN
        RAISE EXCEPTION 'item_sizes has column privileges, which the view that replaces it cannot keep; revoke them first';
    END IF;
END
$$;
SELECT set_config('gridstore.item_sizes_readers', coalesce(array_agg(DISTINCT
           CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END
               || CASE WHEN acl.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END), '{}')::text, true),
       set_config('gridstore.item_sizes_comment', coalesce(obj_description('item_sizes'::regclass, 'pg_class'), ''), true),
       set_config('gridstore.item_sizes_commented',
                  (obj_description('item_sizes'::regclass, 'pg_class') IS NOT NULL)::text, true)
FROM (SELECT (aclexplode(relacl)).* FROM pg_class WHERE oid = 'item_sizes'::regclass) AS acl
WHERE acl.privilege_type = 'SELECT' AND acl.grantee <> (SELECT relowner FROM pg_class WHERE oid = 'item_sizes'::regclass);

-- Refused, and rolled back, when an object gridstore did not create depends on the table (a view of an app's).
DROP TABLE item_sizes;

-- Sizes set explicitly, like keys in UserDefaults, one row per item: an item without a row has its
-- grid's default_size. Read-only: gridstore writes sizes (gridstore set, toggle, import).
CREATE VIEW item_sizes (grid_id, section, item, size) AS
SELECT chunk.grid_id, chunk.section, chunk.first_item + letter.position::integer - 1,
       CASE letter.value WHEN 's' THEN 'small' WHEN 'm' THEN 'middle' WHEN 'b' THEN 'big' END
FROM size_chunks AS chunk
CROSS JOIN LATERAL regexp_split_to_table(chunk.sizes, '') WITH ORDINALITY AS letter (value, position)
WHERE letter.value <> '.';

DO $$
DECLARE
    reader text;
BEGIN
    FOREACH reader IN ARRAY current_setting('gridstore.item_sizes_readers')::text[] LOOP
        EXECUTE 'GRANT SELECT ON item_sizes TO ' || reader;
    END LOOP;
    IF current_setting('gridstore.item_sizes_commented') = 'true' THEN
        EXECUTE format('COMMENT ON VIEW item_sizes IS %L', current_setting('gridstore.item_sizes_comment'));
    END IF;
END
$$;
