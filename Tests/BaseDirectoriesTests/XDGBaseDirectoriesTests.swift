import BaseDirectories
import Testing

@Suite("XDG base directories follow the specification")
struct XDGBaseDirectoriesTests {
    @Test("an absolute XDG_* value is the folder")
    func absoluteValuesCount() {
        let folders = XDGBaseDirectories(environment: [
            "HOME": "/home/ada", "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/c", "XDG_CONFIG_HOME": "/g",
            "XDG_STATE_HOME": "/s",
        ])
        #expect(folders.dataHome == "/d")
        #expect(folders.cacheHome == "/c")
        #expect(folders.configHome == "/g")
        #expect(folders.stateHome == "/s")
        #expect(folders.data("books", "books.sqlite") == "/d/books/books.sqlite")
        #expect(folders.cache("books") == "/c/books")
    }

    @Test("unset, empty or relative XDG_* values are ignored: the defaults under HOME")
    func relativeOrEmptyValuesAreIgnored() {
        for value in [nil, "", "relative", "./here", "~/data"] as [String?] {
            var environment = ["HOME": "/home/ada"]
            for variable in ["XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"] {
                environment[variable] = value
            }
            let folders = XDGBaseDirectories(environment: environment)
            #expect(folders.dataHome == "/home/ada/.local/share", "\(value ?? "unset")")
            #expect(folders.cacheHome == "/home/ada/.cache")
            #expect(folders.configHome == "/home/ada/.config")
            #expect(folders.stateHome == "/home/ada/.local/state")
        }
    }

    @Test("an empty HOME falls back to the account's home folder, never to a relative path")
    func emptyHomeFallsBack() {
        let folders = XDGBaseDirectories(environment: ["HOME": ""])
        #expect(folders.home.hasPrefix("/"))
        #expect(folders.dataHome == folders.home + "/.local/share")
    }
}
