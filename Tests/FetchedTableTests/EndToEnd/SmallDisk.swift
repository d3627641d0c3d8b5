import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A real file system of its own, small enough to fill: a 1 MiB `tmpfs` mounted on a folder,
/// so that a write of a program under test meets a full disk as it would on a full drive
/// (`ENOSPC` from the kernel, no injection). Mounting takes root (CAP_SYS_ADMIN), which CI has;
/// ``unavailableReason`` says why not elsewhere.
///
///     let disk = try SmallDisk(at: folder)
///     defer { disk.unmount() }
///     try disk.fill()          // the next write of any program there fails: the disk is full
///     disk.makeRoom()
final class SmallDisk {
    /// The folder the file system is mounted on.
    let path: String
    /// The file that takes up the room ``fill()`` takes.
    private var filler: String { path + "/filler" }
    private var mounted = true

    static let mount = ProcessRunner.which("mount")
    static let umount = ProcessRunner.which("umount")

    /// Why no small disk can be mounted here (not root, no `mount`, or the kernel refused a
    /// trial mount), nil when one can.
    static let unavailableReason: String? = {
        guard geteuid() == 0 else { return "mounting a small tmpfs takes root" }
        guard mount != nil, umount != nil else { return "mount and umount are not installed" }
        let trial = TemporaryDirectory("small-disk-trial")
        defer { trial.remove() }
        do {
            let disk = try SmallDisk(at: trial.path)
            disk.unmount()
            return nil
        } catch {
            return "a small tmpfs could not be mounted: \(error)"
        }
    }()

    /// Mounts a 1 MiB tmpfs on `folder` (made if missing).
    init(at folder: String) throws {
        path = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard let mount = SmallDisk.mount else { throw EndToEndError("mount is not installed") }
        let result = try ProcessRunner.run(mount, ["-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", folder])
        guard result.status == 0 else {
            throw EndToEndError("mount -t tmpfs \(folder) failed (\(result.status)): \(result.standardError)")
        }
    }

    deinit { unmount() }

    /// Unmounts the file system (lazily when a program still has a file open on it: the mount
    /// goes once that program ends).
    func unmount() {
        guard mounted, let umount = SmallDisk.umount else { return }
        mounted = false
        if (try? ProcessRunner.run(umount, [path]))?.status != 0 {
            _ = try? ProcessRunner.run(umount, ["-l", path])
        }
    }

    /// Takes every free byte with one file, until the kernel says `ENOSPC`: the next write of
    /// any program that needs room fails. Throws when the file system ended on another error.
    func fill() throws {
        let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw EndToEndError("cannot create \(filler): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x2E, count: 65536)
        // Large chunks, then single bytes: the last page of the file taken too.
        for size in [65536, 4096, 1] {
            while true {
                let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, size) }
                if written > 0 { continue }
                guard errno == ENOSPC else {
                    throw EndToEndError("writing \(filler) failed: \(String(cString: strerror(errno)))")
                }
                break
            }
        }
    }

    /// Removes the file ``fill()`` wrote: the room is back.
    func makeRoom() { unlink(filler) }
}
