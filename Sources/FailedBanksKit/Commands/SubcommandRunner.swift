import CLIKit

/// CLIKit's `runCommand`, with the help text and the usage errors going to
/// the command's own sinks instead of straight to the process's stdout and
/// stderr.
///
/// `list` and `watch` take their output as closures so that tests can run
/// them in-process; with this, a test also sees what a person sees for
/// `--help`, a bad `--sort` or a `--where` that does not parse. The bytes and
/// statuses are those of `runCommand`: help + newline on the output (0), the
/// usage sentence on the error output (64), anything else as
/// `program: error` (70).
///
///     SubcommandRunner.run(spec: spec, arguments: arguments, help: { out.write($0 + "\n") },
///                          errorOutput: { writeStandardError($0 + "\n") }) { parsed in
///         return ExitStatus.ok
///     }
enum SubcommandRunner {
    /// Parses `arguments` by `spec` and runs `body`; `help` receives the `--help` text (to be
    /// printed as a line: `runCommand` adds the newline), `errorOutput` one message without newline.
    static func run(
        spec: CommandSpec,
        arguments: [String],
        help: (String) -> Void,
        errorOutput: (String) -> Void,
        _ body: (ParsedArguments) throws -> Int32
    ) -> Int32 {
        do {
            return try body(parseArguments(arguments, spec: spec))
        } catch CommandLineError.helpRequested(let text) {
            help(text)
            return ExitStatus.ok
        } catch CommandLineError.usage(let message) {
            errorOutput(message)
            return ExitStatus.usage
        } catch {
            errorOutput("\(ProgramName.current): \(error)")
            return ExitStatus.software
        }
    }
}
