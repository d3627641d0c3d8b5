import CLIKit

enum ScrollTerminalChild {
    static func run(_ arguments: [String]) -> Int32 {
        printError("not yet available")
        return ExitStatus.software
    }
}
