import Foundation
import StudentList
import TerminalUI

// students [--db PATH]: exits with the list's status (0, or 128 + a signal); the sectioned list of the Students tutorial.
let path = StudentList.databasePath(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)
do {
    let store = try StudentList.openStore(at: path)
    let screen = try CursesBackend()
    let loop = TerminalRunLoop(screen: screen, minimumWidth: 24, minimumHeight: 8)
    let list = try StudentList.makeScreen(
        store: store,
        loop: loop,
        animated: !CommandLine.arguments.contains("--no-animation")
    )
    let status = list.run().exitStatus
    screen.close()
    exit(status)
} catch {
    FileHandle.standardError.write(Data("students: \(path): \(error)\n".utf8))
    exit(1)
}
