import CLIKit
import FetchedTableKit

#if canImport(Glibc)
import Glibc
#endif

ProgramName.current = "fetchedtable"
exit(FetchedTableCommand.main(Array(CommandLine.arguments.dropFirst())))
