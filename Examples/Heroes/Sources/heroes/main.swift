import Foundation
import HeroList
import TerminalUI

// heroes [--db PATH]: exits with the list's status (0, or 128 + a signal); the HeroList tutorial.
let path = HeroList.databasePath(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)
do {
    let store = try HeroList.openStore(at: path)
    let screen = try CursesBackend()
    let loop = TerminalRunLoop(screen: screen, minimumWidth: 24, minimumHeight: 8)
    let list = try HeroList.makeScreen(
        store: store,
        loop: loop,
        animated: !CommandLine.arguments.contains("--no-animation")
    )
    let status = list.run().exitStatus
    screen.close()
    exit(status)
} catch {
    FileHandle.standardError.write(Data("heroes: \(path): \(error)\n".utf8))
    exit(1)
}
