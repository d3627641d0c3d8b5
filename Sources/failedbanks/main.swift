import CLIKit
import FailedBanksKit
import Glibc

ProgramName.current = "failedbanks"
exit(FailedBanksCommand.main(Array(CommandLine.arguments.dropFirst())))
