-- gridstore schema, version 3: item keys.
-- An item may carry a key, a name the app gives it (like gridstack.js's id), so that its size
-- follows it when the app's data source reorders or filters its items. A key names one item of
-- its grid; items without a key have no row. Look an item up with:
--   SELECT section, item FROM item_keys JOIN grids ON grids.id = grid_id WHERE name = 'default' AND key = 'mail';
CREATE TABLE item_keys (
    grid_id  INTEGER NOT NULL,
    section  INTEGER NOT NULL,
    item     INTEGER NOT NULL CHECK (item >= 0),
    key      TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    PRIMARY KEY (grid_id, section, item),
    UNIQUE (grid_id, key),
    FOREIGN KEY (grid_id, section) REFERENCES sections (grid_id, section) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
