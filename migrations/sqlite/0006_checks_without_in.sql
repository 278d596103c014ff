-- gridstore schema, version 6: the same rules on sizes and history kinds, written without IN.
-- SQLite builds a temporary b-tree for a CHECK of the form `x IN ('a', 'b')` each time a statement
-- checks it: writing 100,000 size rows spent most of its time there. `x = 'a' OR x = 'b'` is the
-- same rule, checked with a few comparisons. A table's CHECK cannot be altered, so both tables are
-- rebuilt: the old one is renamed, the new one created under the name, the rows copied, the old dropped.
ALTER TABLE item_sizes RENAME TO item_sizes_before_version_6;

-- Sizes set explicitly, like keys in UserDefaults. An item without a row has its grid's default_size.
CREATE TABLE item_sizes (
    grid_id  INTEGER NOT NULL,
    section  INTEGER NOT NULL,
    item     INTEGER NOT NULL CHECK (item >= 0),
    size     TEXT    NOT NULL CHECK (size = 'small' OR size = 'middle' OR size = 'big'),
    PRIMARY KEY (grid_id, section, item),
    FOREIGN KEY (grid_id, section) REFERENCES sections (grid_id, section) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

INSERT INTO item_sizes (grid_id, section, item, size)
    SELECT grid_id, section, item, size FROM item_sizes_before_version_6;
DROP TABLE item_sizes_before_version_6;

ALTER TABLE history RENAME TO history_before_version_6;

-- Every change's history: see version 5.
CREATE TABLE history (
    grid_id    INTEGER NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    revision   INTEGER NOT NULL CHECK (revision > 0),
    made_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    kind       TEXT    NOT NULL CHECK (kind = 'change' OR kind = 'undo' OR kind = 'redo' OR kind = 'revert'),
    operation  TEXT    NOT NULL,
    actor      TEXT    NOT NULL,
    targets    TEXT    NOT NULL DEFAULT '',
    delta      TEXT    NOT NULL,
    PRIMARY KEY (grid_id, revision)
) STRICT, WITHOUT ROWID;

INSERT INTO history (grid_id, revision, made_at, kind, operation, actor, targets, delta)
    SELECT grid_id, revision, made_at, kind, operation, actor, targets, delta FROM history_before_version_6;
DROP TABLE history_before_version_6;
