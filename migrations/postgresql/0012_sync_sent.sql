-- gridstore schema for PostgreSQL, version 12: the latest time of a synced grid's own changes
-- (its replica's) that left this database, by a sync or an exported bundle, as SQLite has since
-- its version 11. A database restored from a backup in place is found out at a sync with a peer
-- that knows more of those changes than this time: the changes made here since then are handed
-- to a new replica, and the lost ones come back from the peer. NULL for a state stored before
-- version 12: the replica's own version stands for it.
ALTER TABLE sync_states ADD COLUMN sent bigint CHECK (sent >= 0);
