-- gridstore schema, version 11: the latest time of a synced grid's own changes (its replica's)
-- that left this database, by a sync or an exported bundle. A database restored from a backup
-- in place is found out at a sync with a peer that knows more of those changes than this time:
-- the changes made here since then are handed to a new replica, and the lost ones come back from
-- the peer. NULL for a state stored before version 11: the replica's own version stands for it.
ALTER TABLE sync_states ADD COLUMN sent INTEGER CHECK (sent >= 0);
