#ifndef GRIDSTORE_CSQLITE_SHIM_H
#define GRIDSTORE_CSQLITE_SHIM_H

#include <sqlite3.h>
#if defined(__linux__) && defined(__has_include)
#include <fcntl.h>
#include <sys/xattr.h>
#include <unistd.h>
#if __has_include(<linux/stat.h>)
#include <linux/stat.h>
#include <sys/syscall.h>
#endif
#define CSQLITE_HAS_XATTR 1
#elif defined(__APPLE__)
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#define CSQLITE_HAS_XATTR 1
#endif

/// `SQLITE_TRANSIENT` is a macro that casts -1 to a function pointer, which
/// Swift cannot import; this returns it as a value.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// `sqlite3_db_config` is variadic, which Swift cannot call; this sets one on/off option.
static inline int csqlite_db_config_flag(sqlite3 *db, int option, int value) {
    return sqlite3_db_config(db, option, value, (int *)0);
}

/// `sqlite3_config` is variadic too; this turns the library's memory statistics on or off.
/// It takes effect only before SQLite initializes (else it returns `SQLITE_MISUSE`).
static inline int csqlite_config_memory_statistics(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

/// The birth time of the file at `path`, following symbolic links, where the file system
/// records one (ext4, btrfs, xfs and APFS): 0 with it set, else -1. Not part
/// of SQLite: the package's one C module holds it so that a copy of a database file restored
/// where a freed inode number comes back is still told apart from the file it copies.
static inline int csqlite_file_birth_time(const char *path, long long *seconds, unsigned int *nanoseconds) {
#if defined(__linux__) && defined(SYS_statx) && defined(STATX_BTIME)
    struct statx info;
    if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_BTIME, &info) != 0 || !(info.stx_mask & STATX_BTIME)) return -1;
    *seconds = (long long)info.stx_btime.tv_sec;
    *nanoseconds = info.stx_btime.tv_nsec;
    return 0;
#elif defined(__APPLE__)
    struct stat info;
    if (stat(path, &info) != 0) return -1;
    *seconds = (long long)info.st_birthtimespec.tv_sec;
    *nanoseconds = (unsigned int)info.st_birthtimespec.tv_nsec;
    return 0;
#else
    (void)path; (void)seconds; (void)nanoseconds;
    return -1;
#endif
}

/// Reads the extended attribute `name` of the file at `path`, following symbolic links, into
/// `buffer` of `size` bytes: its length, or -1 (no such attribute, one longer than `size`, a
/// file system without extended attributes). Not part of SQLite: see ``csqlite_file_birth_time``.
static inline long csqlite_file_attribute(const char *path, const char *name, char *buffer, unsigned long size) {
#if defined(CSQLITE_HAS_XATTR) && defined(__linux__)
    return (long)getxattr(path, name, buffer, size);
#elif defined(CSQLITE_HAS_XATTR)
    return (long)getxattr(path, name, buffer, size, 0, 0);
#else
    (void)path; (void)name; (void)buffer; (void)size;
    return -1;
#endif
}

/// Sets the extended attribute `name` of the file at `path` to the `length` bytes at `value`,
/// written through to the disk: 0, or -1 (a file system without extended attributes or room
/// among them, a file this process may not write).
static inline int csqlite_set_file_attribute(const char *path, const char *name, const char *value, unsigned long length) {
#if defined(CSQLITE_HAS_XATTR)
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return -1;
#if defined(__linux__)
    int result = fsetxattr(descriptor, name, value, length, 0);
#else
    int result = fsetxattr(descriptor, name, value, length, 0, 0);
#endif
    if (result == 0) result = fsync(descriptor);
    close(descriptor);
    return result;
#else
    (void)path; (void)name; (void)value; (void)length;
    return -1;
#endif
}

/// Removes the extended attribute `name` of the file at `path`: 0, or -1.
static inline int csqlite_remove_file_attribute(const char *path, const char *name) {
#if defined(CSQLITE_HAS_XATTR) && defined(__linux__)
    return removexattr(path, name);
#elif defined(CSQLITE_HAS_XATTR)
    return removexattr(path, name, 0);
#else
    (void)path; (void)name;
    return -1;
#endif
}

#endif
