import CLIKit
import FailedBanksKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

ProgramName.current = "failedbanks"
exit(FailedBanksCommand.main(Array(CommandLine.arguments.dropFirst())))
