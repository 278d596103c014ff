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
exit(GridStoreCommandLine.main(arguments: Array(CommandLine.arguments.dropFirst())))
