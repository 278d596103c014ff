#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GridStoreCLI

exit(GridStoreCommandLine.main(arguments: Array(CommandLine.arguments.dropFirst())))
