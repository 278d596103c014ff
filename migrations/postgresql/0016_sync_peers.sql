-- gridstore schema for PostgreSQL, version 16: the peers each synced grid met in syncs, and how
-- much of its state each is known to hold, so that a deleted item's record can be forgotten once
-- every peer holds the delete (docs/sync.md, "Peers"). `<replica>:<version>:<time>` entries,
-- comma-separated, most recently met first: the peer's replica id for the grid, the latest sync
-- version of the grid (sync_states.version) at which the peer held every register, and when a
-- sync with it (or a bundle it made) was last merged here, in milliseconds since 1970. Empty for
-- none; NULL for a state stored before version 16, which met none since.
ALTER TABLE sync_states ADD COLUMN peers text CHECK (peers IS NULL OR length(peers) <= 4672);
