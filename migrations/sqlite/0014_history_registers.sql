-- gridstore schema, version 14: the sync registers each change of a synced grid wrote, with their
-- values before and after, so that undo and redo take a change back on the items it touched
-- wherever they are now, after syncs too. One line per register (tab-separated: kind, entity,
-- field, the value before, the value after, each value as a format 1 bundle writes it); NULL for a
-- change of a grid that did not sync then, a merge, and every entry written before version 14.
ALTER TABLE history ADD COLUMN registers TEXT;
