import CLIKit
import FailedBanksKit
import Glibc

// bench [--rows N] [--json PATH] [--only NAME,…]: see BenchConfiguration.spec.
// bench --child NAME …: one of the child processes bench starts for itself.
// bench --compare BEFORE.json AFTER.json: each shared key's change; status 1 when a ratio worsened by > 10 %.
ProgramName.current = "bench"
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child" {
    exit(ChildCommand.run(Array(arguments.dropFirst())))
}
if arguments.first == "--compare" {
    exit(BenchComparison.run(Array(arguments.dropFirst())))
}
do {
    let configuration = try BenchConfiguration(arguments: arguments)
    let runner = try BenchRunner(configuration: configuration)
    exit(runner.run())
} catch CommandLineError.helpRequested(let text) {
    print(text)
    exit(ExitStatus.ok)
} catch CommandLineError.usage(let message) {
    writeStandardError("\(message)\n")
    exit(ExitStatus.usage)
} catch {
    printError("\(error)")
    exit(ExitStatus.software)
}
