#include "SQLiteBaseline.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Opens `path` as gridstore opens a database: a 10-second busy timeout, `synchronous = FULL`
   and foreign keys on, then runs `setup` (or nothing). Returns an SQLite result code. */
static int open_with_settings(const char *path, int flags, const char *setup, sqlite3 **db) {
    int rc = sqlite3_open_v2(path, db, flags, 0);
    if (rc == SQLITE_OK) rc = sqlite3_busy_timeout(*db, 10000);
    if (rc == SQLITE_OK) rc = sqlite3_exec(*db, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON", 0, 0, 0);
    if (rc == SQLITE_OK && setup) rc = sqlite3_exec(*db, setup, 0, 0, 0);
    return rc;
}

int gridstore_baseline_set_sizes(const char *path, long long grid_id, int count,
                                 const unsigned char *sizes, double *elapsed_ms) {
    static const char letters[] = {'s', 'm', 'b'};
    enum { chunk_size = 256 };
    char text[chunk_size];
    sqlite3 *db = 0;
    sqlite3_stmt *upsert = 0;
    int rc = open_with_settings(path, SQLITE_OPEN_READWRITE, 0, &db);
    if (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(db,
            "INSERT INTO size_chunks (grid_id, section, first_item, sizes) VALUES (?, 0, ?, ?) "
            "ON CONFLICT (grid_id, section, first_item) DO UPDATE SET sizes = excluded.sizes", -1, &upsert, 0);
    }
    double start = now_ms();
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
    for (int first = 0; rc == SQLITE_OK && first < count; first += chunk_size) {
        int length = count - first < chunk_size ? count - first : chunk_size;
        for (int offset = 0; offset < length; offset++) text[offset] = letters[sizes[first + offset]];
        sqlite3_bind_int64(upsert, 1, grid_id);
        sqlite3_bind_int(upsert, 2, first);
        sqlite3_bind_text(upsert, 3, text, length, SQLITE_STATIC);
        rc = sqlite3_step(upsert);
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
        sqlite3_reset(upsert);
    }
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", 0, 0, 0);
    *elapsed_ms = now_ms() - start;
    sqlite3_finalize(upsert);
    sqlite3_close(db);
    return rc;
}

int gridstore_baseline_set_size_rows(const char *path, int count, const unsigned char *sizes, double *elapsed_ms) {
    static const char *const names[] = {"small", "middle", "big"};
    static const int lengths[] = {5, 6, 3};
    sqlite3 *db = 0;
    sqlite3_stmt *insert = 0;
    int rc = open_with_settings(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
        "PRAGMA journal_mode = WAL; "
        "CREATE TABLE IF NOT EXISTS item_sizes ("
        " grid_id INTEGER NOT NULL, section INTEGER NOT NULL, item INTEGER NOT NULL CHECK (item >= 0),"
        " size TEXT NOT NULL CHECK (size = 'small' OR size = 'middle' OR size = 'big'),"
        " PRIMARY KEY (grid_id, section, item)) STRICT, WITHOUT ROWID", &db);
    if (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(db,
            "INSERT INTO item_sizes (grid_id, section, item, size) VALUES (1, 0, ?, ?) "
            "ON CONFLICT (grid_id, section, item) DO UPDATE SET size = excluded.size", -1, &insert, 0);
    }
    double start = now_ms();
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
    for (int item = 0; rc == SQLITE_OK && item < count; item++) {
        sqlite3_bind_int(insert, 1, item);
        sqlite3_bind_text(insert, 2, names[sizes[item]], lengths[sizes[item]], SQLITE_STATIC);
        rc = sqlite3_step(insert);
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
        sqlite3_reset(insert);
    }
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", 0, 0, 0);
    *elapsed_ms = now_ms() - start;
    sqlite3_finalize(insert);
    sqlite3_close(db);
    return rc;
}

int gridstore_baseline_rewrite_chunks(const char *path, long long grid_id, int variant,
                                      double *elapsed_ms, long long *bytes) {
    sqlite3 *db = 0;
    sqlite3_stmt *read = 0, *update = 0, *size = 0;
    int count = 0, capacity = 0, rc;
    int *sections = 0, *firsts = 0, *lengths = 0;
    unsigned char **texts = 0;
    *bytes = 0;
    rc = open_with_settings(path, SQLITE_OPEN_READWRITE, 0, &db);
    if (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(db, "SELECT section, first_item, cells FROM placement_chunks WHERE grid_id = ?", -1, &read, 0);
    }
    if (rc == SQLITE_OK) sqlite3_bind_int64(read, 1, grid_id);
    while (rc == SQLITE_OK && sqlite3_step(read) == SQLITE_ROW) {
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 1024;
            sections = realloc(sections, sizeof(int) * capacity);
            firsts = realloc(firsts, sizeof(int) * capacity);
            lengths = realloc(lengths, sizeof(int) * capacity);
            texts = realloc(texts, sizeof(unsigned char *) * capacity);
        }
        sections[count] = sqlite3_column_int(read, 0);
        firsts[count] = sqlite3_column_int(read, 1);
        lengths[count] = sqlite3_column_bytes(read, 2);
        texts[count] = malloc(lengths[count] + 1);
        memcpy(texts[count], sqlite3_column_text(read, 2), lengths[count]);
        /* "[[x,..." : the first item's column digit becomes 0 or 1, which the stored text is not. */
        if (lengths[count] > 2) texts[count][2] = (unsigned char)('8' + (variant & 1));
        *bytes += lengths[count];
        count++;
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(db, "UPDATE placement_chunks SET cells = ? WHERE grid_id = ? AND section = ? AND first_item = ?",
                                -1, &update, 0);
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(db, "UPDATE size_chunks SET sizes = ?2 || substr(sizes, 2) "
                                "WHERE grid_id = ?1 AND section = 0 AND first_item = 0", -1, &size, 0);
    }
    double start = now_ms();
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(size, 1, grid_id);
        sqlite3_bind_text(size, 2, variant & 1 ? "m" : "b", -1, SQLITE_STATIC);
        rc = sqlite3_step(size);
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
    }
    for (int chunk = 0; rc == SQLITE_OK && chunk < count; chunk++) {
        sqlite3_bind_text(update, 1, (const char *)texts[chunk], lengths[chunk], SQLITE_STATIC);
        sqlite3_bind_int64(update, 2, grid_id);
        sqlite3_bind_int(update, 3, sections[chunk]);
        sqlite3_bind_int(update, 4, firsts[chunk]);
        rc = sqlite3_step(update);
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
        sqlite3_reset(update);
    }
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", 0, 0, 0);
    *elapsed_ms = now_ms() - start;
    for (int chunk = 0; chunk < count; chunk++) free(texts[chunk]);
    free(texts);
    free(sections);
    free(firsts);
    free(lengths);
    sqlite3_finalize(read);
    sqlite3_finalize(update);
    sqlite3_finalize(size);
    sqlite3_close(db);
    return rc;
}

int gridstore_baseline_history_bytes(const char *path, long long *entries, long long *bytes) {
    sqlite3 *db = 0;
    sqlite3_stmt *sum = 0;
    *entries = 0;
    *bytes = 0;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, 0);
    if (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(db, "SELECT count(*), coalesce(sum(length(CAST(delta AS BLOB)) + length(CAST(operation AS BLOB)) "
                                "+ length(CAST(actor AS BLOB)) + length(made_at) + length(kind) + length(targets) + 16), 0) "
                                "FROM history", -1, &sum, 0);
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(sum);
        if (rc == SQLITE_ROW) {
            *entries = sqlite3_column_int64(sum, 0);
            *bytes = sqlite3_column_int64(sum, 1);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(sum);
    sqlite3_close(db);
    return rc;
}
