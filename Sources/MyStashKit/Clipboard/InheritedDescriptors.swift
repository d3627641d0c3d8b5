import Foundation
import Glibc

/// What a program started by mystash may inherit: stdin, stdout, stderr and the
/// descriptors it is given on purpose, nothing else — not `--passphrase-fd`'s
/// descriptor (which the shell opened without close-on-exec), not the store's.
///
///     InheritedDescriptors.close(from: 3, in: &actions)   // after the dup2s of 0…2
enum InheritedDescriptors {
    /// Adds to `actions` the closing of every descriptor from `lowest` up, in the child.
    ///
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+, looked up at run time: Swift
    /// does not see it without `_GNU_SOURCE`), else a close for each descriptor
    /// `/proc/self/fd` lists (those open now are all the child could inherit).
    static func close(from lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"),
            unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest) == 0
        {
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd >= lowest && fcntl(fd, F_GETFD) != -1 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }
}
