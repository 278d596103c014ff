#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GridStoreCLI
import GridStoreSQLite

// Before anything uses SQLite: this process reads no memory statistics of SQLite's.
SQLiteLibrary.turnOffMemoryStatistics()
// A write past a file-size limit (`ulimit -f`) fails as a full disk does, said in one line with
// every file left as it was, instead of the signal ending the process midway.
signal(SIGXFSZ, SIG_IGN)
exit(GridStoreCommandLine.main(arguments: Array(CommandLine.arguments.dropFirst())))
