#ifndef GRIDSTORE_SQLITE_BASELINE_H
#define GRIDSTORE_SQLITE_BASELINE_H

/// The least a C program can do to store tile sizes in gridstore's schema (version 7 on):
/// one prepared INSERT ... ON CONFLICT of each chunk of 256 sizes into `size_chunks`, bound and
/// stepped in a loop inside one BEGIN IMMEDIATE transaction, on a connection with gridstore's
/// settings. It is the floor `gridstore-bench` measures the repository's bulk set against.
///
/// Writes `count` sizes (0 small, 1 middle, 2 big) for items 0..<count of section 0 of
/// grid `grid_id` in the database at `path`, and stores the milliseconds taken from BEGIN
/// to the end of COMMIT in `elapsed_ms`. Returns 0, or the SQLite result code of a failure.
int gridstore_baseline_set_sizes(const char *path, long long grid_id, int count,
                                 const unsigned char *sizes, double *elapsed_ms);

/// The same sizes stored one row per item, as gridstore's schema did before version 7: a table
/// shaped as its `item_sizes` was, created in a WAL database of its own at `path`, written by
/// one prepared statement in a loop inside one transaction with `synchronous = FULL`.
int gridstore_baseline_set_size_rows(const char *path, int count, const unsigned char *sizes, double *elapsed_ms);

/// The least a C program can do to store a toggle of the first of n tiles, which moves
/// every later tile: one BEGIN IMMEDIATE transaction that updates the item's size letter and
/// rewrites every placement chunk of grid `grid_id` with text of the same length that
/// differs from what is stored (so SQLite cannot skip a write), on a connection with
/// gridstore's settings. Call it with `variant` 0, 1, 0, 1, ... so each call changes every chunk.
///
/// Stores the milliseconds from BEGIN to the end of COMMIT in `elapsed_ms` and the number of
/// bytes of chunk text written in `bytes`. Returns 0, or the SQLite result code of a failure.
int gridstore_baseline_rewrite_chunks(const char *path, long long grid_id, int variant,
                                      double *elapsed_ms, long long *bytes);

/// How much history the database at `path` holds, read-only: the number of entries in
/// `entries`, and in `bytes` the bytes of their values as stored (the texts' lengths plus 16
/// for the two integers), before SQLite's page overhead. Returns 0, or an SQLite result code.
int gridstore_baseline_history_bytes(const char *path, long long *entries, long long *bytes);

#endif
