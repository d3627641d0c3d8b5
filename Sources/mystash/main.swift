#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLIKit
import MyStashKit

ProgramName.current = "mystash"
exit(MyStashCommand.main(Array(CommandLine.arguments.dropFirst())))
