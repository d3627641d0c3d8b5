import Foundation
import TestSupport
import Testing

@testable import MyStashKit

/// A small tmpfs mounted for one test (root only): a disk that can really be full.
final class SmallDisk {
    let directory: URL

    /// Whether this process can mount one here (root, a kernel that allows it): tried once.
    static let canMount: Bool = {
        guard getuid() == 0, let disk = try? SmallDisk(kilobytes: 64) else { return false }
        disk.unmount()
        return true
    }()

    init(kilobytes: Int) throws {
        directory = TemporaryDirectory.create("mystash-full-disk")
        let result = try ProcessRunner.run(
            "/bin/mount",
            ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", directory.path]
        )
        guard result.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw EndToEndError("cannot mount a tmpfs: \(result.standardError)")
        }
    }

    /// Writes a file until the disk has no room left.
    func fill() {
        let fd = open(directory.appendingPathComponent("filler").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// The names in the folder, sorted.
    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() }

    func unmount() {
        _ = try? ProcessRunner.run("/bin/umount", [directory.path])
        try? FileManager.default.removeItem(at: directory)
    }
}

/// mystash on a full disk says so in words, with exit 74, and leaves no `-wal` or `-shm` behind.
@Suite(.serialized) struct FullDiskTests {
    @Test(.enabled(if: EndToEnd.binary != nil && SmallDisk.canMount, "needs the built mystash and root (a tmpfs)"))
    func showAndListOnAFullDiskSayTheDiskIsFullAndLeaveNothingBehind() throws {
        let disk = try SmallDisk(kilobytes: 512)
        defer { disk.unmount() }
        let path = disk.directory.appendingPathComponent("stash.sqlite").path
        do {
            let stash = try Stash(path: path)
            try stash.setUp(passphrase: SecureBytes(utf8: "full disk"), parameters: .minimum)
            try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "full-Secret-1"))
            stash.lock()
        }
        #expect(disk.files == ["stash.sqlite"], "the stash closed cleanly")
        disk.fill()
        let show = try ScriptRun.run(["show", "Bank", "--db", path, "--passphrase-fd", "3"], fd3: "full disk\n")
        #expect(show.status == 74, "\(show.standardError)")
        #expect(show.standardError == "mystash: cannot open \(path): the disk is full\n")
        #expect(show.standardOutput == "")
        #expect(disk.files == ["filler", "stash.sqlite"], "left behind by show")
        let list = try ScriptRun.run(["list", "passwords", "--db", path])
        #expect(list.status == 74, "\(list.standardError)")
        #expect(list.standardError == "mystash: cannot open \(path): the disk is full\n")
        #expect(disk.files == ["filler", "stash.sqlite"], "left behind by list")
        // Room again: the stash is as it was.
        unlink(disk.directory.appendingPathComponent("filler").path)
        let again = try ScriptRun.run(["show", "Bank", "--db", path, "--passphrase-fd", "3"], fd3: "full disk\n")
        #expect(again.status == 0 && again.standardOutput == "full-Secret-1\n", "\(again.standardError)")
    }
}
