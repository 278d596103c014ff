-- gridstore schema, version 10: the sync ids of a synced grid's items in order, so that a change
-- of sizes finds the items it changed without reading the grid's whole sync state. ids holds the
-- ids of up to 256 consecutive items of a section from first_item (a multiple of 256), 16
-- hexadecimal digits each. Written with the registers; a grid whose ids are not stored (one
-- synced before version 10) has them written at its next change.
CREATE TABLE sync_item_ids (
    grid_id     INTEGER NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    section     INTEGER NOT NULL CHECK (section >= 0),
    first_item  INTEGER NOT NULL CHECK (first_item >= 0 AND first_item % 256 = 0),
    ids         TEXT    NOT NULL,
    PRIMARY KEY (grid_id, section, first_item)
) STRICT, WITHOUT ROWID;
