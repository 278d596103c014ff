-- gridstore schema for PostgreSQL, version 6: every change's history, so it can be undone, redone and inspected.
-- One row per change, written in the change's transaction: the revision it made, when, its kind
-- ('change', 'undo', 'redo' or 'revert'), the operation as given ('toggle 3'), who made it, for an
-- undo or redo the revisions of the changes it took back or re-applied (newest first, comma-separated),
-- and delta: a JSON array of the edits with what each replaced, enough to undo it. Read it with:
--   SELECT revision, made_at, kind, operation, actor FROM history
--   WHERE grid_id = (SELECT id FROM grids WHERE name = 'default') ORDER BY revision DESC LIMIT 10;
CREATE TABLE history (
    grid_id    bigint      NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    revision   bigint      NOT NULL CHECK (revision > 0),
    made_at    timestamptz NOT NULL DEFAULT now(),
    kind       text        NOT NULL CHECK (kind IN ('change', 'undo', 'redo', 'revert')),
    operation  text        NOT NULL,
    actor      text        NOT NULL,
    targets    text        NOT NULL DEFAULT '',
    delta      text        NOT NULL,
    PRIMARY KEY (grid_id, revision)
);

-- How many history entries each grid keeps (the newest); 0 keeps none.
ALTER TABLE grids ADD COLUMN history_keep integer NOT NULL DEFAULT 1000 CHECK (history_keep BETWEEN 0 AND 1000000);
