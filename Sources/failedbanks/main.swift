#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLIKit
import FailedBanksKit

ProgramName.current = "failedbanks"
exit(FailedBanksCommand.main(Array(CommandLine.arguments.dropFirst())))
