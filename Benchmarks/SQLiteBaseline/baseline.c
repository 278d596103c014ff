#include "SQLiteBaseline.h"

#include <sqlite3.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int gridstore_baseline_set_sizes(const char *path, long long grid_id, int count,
                                 const unsigned char *sizes, double *elapsed_ms) {
    static const char *const names[] = {"small", "middle", "big"};
    static const int lengths[] = {5, 6, 3};
    sqlite3 *db = 0;
    sqlite3_stmt *insert = 0;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, 0);
    if (rc == SQLITE_OK) rc = sqlite3_busy_timeout(db, 10000);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON", 0, 0, 0);
    if (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(db,
            "INSERT INTO item_sizes (grid_id, section, item, size) VALUES (?, 0, ?, ?) "
            "ON CONFLICT (grid_id, section, item) DO UPDATE SET size = excluded.size", -1, &insert, 0);
    }
    double start = now_ms();
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
    for (int item = 0; rc == SQLITE_OK && item < count; item++) {
        sqlite3_bind_int64(insert, 1, grid_id);
        sqlite3_bind_int(insert, 2, item);
        sqlite3_bind_text(insert, 3, names[sizes[item]], lengths[sizes[item]], SQLITE_STATIC);
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
