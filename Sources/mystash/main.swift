import CLIKit
import Glibc
import MyStashKit

// Before anything is read: no core dump may hold a passphrase, a key or a revealed password.
ProcessHardening.disableCoreDumps()
ProgramName.current = "mystash"
exit(MyStashCommand.main(Array(CommandLine.arguments.dropFirst())))
