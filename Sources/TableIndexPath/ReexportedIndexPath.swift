// Foundation's `IndexPath` itself, so that code importing only `FetchedResults`
// or `TerminalUI` can name the type their APIs take (without `import Foundation`).
@_exported import struct Foundation.IndexPath
