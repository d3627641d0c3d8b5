// swift-tools-version:6.0
// The layers (the README's layout), one target each. System C libraries (SQLite,
// ncursesw, libsodium) come in through module maps; nothing is fetched.
import PackageDescription

let package = Package(
    name: "FetchedTable",
    products: [
        // The engine, for other packages: `.product(name: "FetchedResults", package: "FetchedTable")`.
        .library(name: "BaseDirectories", targets: ["BaseDirectories"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "FetchedResults", targets: ["FetchedResults"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "FetchedResultsScripts", targets: ["FetchedResultsScripts"]),
        .library(name: "FetchedResultsUI", targets: ["FetchedResultsUI"]),
        .library(name: "CSVImport", targets: ["CSVImport"]),
        .library(name: "BulkImport", targets: ["BulkImport"]),
        .library(name: "PostgreSQLClient", targets: ["PostgreSQLClient"]),
        .library(name: "PostgreSQLChangeFeed", targets: ["PostgreSQLChangeFeed"]),
        .library(name: "PostgreSQLReplica", targets: ["PostgreSQLReplica"]),
        // The apps and tools.
        .executable(name: "failedbanks", targets: ["failedbanks"]),
        .executable(name: "mystash", targets: ["mystash"]),
        .executable(name: "fetchedtable", targets: ["fetchedtable"]),
        .executable(name: "bench", targets: ["bench"]),
        .executable(name: "banklist-gen", targets: ["banklist-gen"]),
    ],
    targets: [
        // System libraries.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CNCurses", path: "Sources/CNCurses"),
        .systemLibrary(name: "CSodium", path: "Sources/CSodium"),
        .systemLibrary(name: "CLibCrypto", path: "Sources/CLibCrypto"),
        .systemLibrary(name: "CZxcvbn", path: "Sources/CZxcvbn"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CScheduling", path: "Sources/CScheduling"),
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),

        // ICU's collators behind a C interface of their own (libicu-dev): Foundation's own ICU
        // headers would clash with the system's in a module map.
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),

        // Layers.
        .target(name: "Timekeeping"),
        .target(name: "BaseDirectories"),
        .target(name: "SQLiteStore", dependencies: ["CSQLite", "Timekeeping"]),
        .target(name: "CSVImport", dependencies: ["Timekeeping"]),
        .target(name: "TableIndexPath"),
        .target(
            name: "FetchedResults",
            dependencies: ["SQLiteStore", "TableIndexPath", "BaseDirectories", "CScheduling"]
        ),
        .target(name: "TerminalUI", dependencies: ["CNCurses", "TableIndexPath", "Timekeeping"]),
        .target(name: "FetchedResultsScripts", dependencies: ["FetchedResults", "SQLiteStore", "CLIKit"]),
        .target(
            name: "FetchedResultsUI",
            dependencies: ["FetchedResults", "FetchedResultsScripts", "TerminalUI", "BaseDirectories"]
        ),
        .target(name: "BulkImport", dependencies: ["SQLiteStore", "CSVImport", "Timekeeping", "BaseDirectories"]),
        .target(name: "CLIKit", dependencies: ["BaseDirectories"]),
        .target(name: "PostgreSQLClient", dependencies: ["CLibPQ"]),
        .target(name: "PostgreSQLChangeFeed", dependencies: ["PostgreSQLClient"]),
        .target(
            name: "PostgreSQLReplica",
            dependencies: [
                "PostgreSQLClient", "PostgreSQLChangeFeed", "SQLiteStore", "BulkImport", "CICU", "BaseDirectories",
            ]
        ),

        // Apps: a library each (testable), and a thin executable.
        .target(
            name: "FailedBanksKit",
            dependencies: [
                "SQLiteStore", "CSVImport", "BulkImport", "FetchedResults", "TerminalUI", "FetchedResultsUI",
                "FetchedResultsScripts", "CLIKit",
                "Timekeeping", "BaseDirectories", "CCurl", "CZlib",
            ]
        ),
        .target(
            name: "MyStashKit",
            dependencies: [
                "SQLiteStore", "CSVImport", "FetchedResults", "TerminalUI", "FetchedResultsUI", "FetchedResultsScripts",
                "CSodium", "CLibCrypto",
                "CZxcvbn", "CLIKit", "BaseDirectories",
            ]
        ),
        .target(
            name: "FetchedTableKit",
            dependencies: [
                "SQLiteStore", "CSVImport", "BulkImport", "FetchedResults", "TerminalUI", "FetchedResultsUI",
                "FetchedResultsScripts", "CLIKit",
                "PostgreSQLClient", "PostgreSQLChangeFeed", "PostgreSQLReplica",
            ]
        ),
        .executableTarget(name: "failedbanks", dependencies: ["FailedBanksKit"]),
        .executableTarget(name: "fetchedtable", dependencies: ["FetchedTableKit"]),
        .executableTarget(name: "mystash", dependencies: ["MyStashKit"]),
        .executableTarget(name: "banklist-gen", dependencies: ["CSVImport", "CLIKit", "TestSupport"]),
        .executableTarget(
            name: "bench",
            dependencies: [
                "SQLiteStore", "CSVImport", "FetchedResults", "FetchedResultsUI", "TerminalUI", "FailedBanksKit",
                "FetchedTableKit", "CLIKit", "TestSupport", "Timekeeping", "BaseDirectories", "PostgreSQLClient",
            ]
        ),

        // Tests sit beside the layer they test.
        .target(name: "TestSupport", dependencies: ["CSVImport"], path: "Tests/TestSupport"),
        // A SQLite VFS that fails chosen I/O calls, for the tests only (README: Reliability).
        .target(
            name: "FaultInjection",
            dependencies: ["CSQLite", "SQLiteStore", "TestSupport"],
            path: "Tests/FaultInjection"
        ),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "TestSupport", "FaultInjection"]),
        .testTarget(name: "CSVImportTests", dependencies: ["CSVImport", "TestSupport"]),
        .testTarget(
            name: "BulkImportTests",
            dependencies: ["BulkImport", "CSVImport", "SQLiteStore", "TestSupport", "FaultInjection"]
        ),
        .testTarget(name: "FetchedResultsTests", dependencies: ["FetchedResults", "SQLiteStore", "TestSupport"]),
        .testTarget(name: "BenchTests", dependencies: ["TestSupport"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TestSupport"], exclude: ["Golden"]),
        .testTarget(
            name: "FetchedResultsUITests",
            dependencies: [
                "FetchedResultsUI", "FetchedResults", "TerminalUI", "SQLiteStore", "TestSupport", "FaultInjection",
            ],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "FailedBanksTests",
            dependencies: [
                "FailedBanksKit", "SQLiteStore", "CSVImport", "BulkImport", "FetchedResults", "FetchedResultsScripts",
                "TestSupport", "FaultInjection", "CZlib",
            ],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "MyStashTests",
            dependencies: ["MyStashKit", "SQLiteStore", "TestSupport", "FaultInjection"]
        ),
        .testTarget(name: "CLIKitTests", dependencies: ["CLIKit", "TestSupport"]),
        .testTarget(name: "BaseDirectoriesTests", dependencies: ["BaseDirectories"]),
        .testTarget(
            name: "FetchedResultsScriptsTests",
            dependencies: [
                "FetchedResultsScripts", "FetchedResults", "SQLiteStore", "TestSupport",
                // A saved view read back through the project's own readers.
                "CSVImport", "BulkImport",
            ]
        ),
        // The built programs as installed: install.sh, the Debian package, man pages, completions.
        .testTarget(name: "PackagingTests", dependencies: ["CLIKit", "MyStashKit", "TestSupport"]),
        .testTarget(
            name: "PostgreSQLClientTests",
            dependencies: ["PostgreSQLClient", "PostgreSQLChangeFeed", "TestSupport"]
        ),
        .testTarget(
            name: "PostgreSQLReplicaTests",
            dependencies: [
                "PostgreSQLReplica", "PostgreSQLClient", "PostgreSQLChangeFeed", "SQLiteStore", "TestSupport",
            ]
        ),
        .testTarget(
            name: "FetchedTableTests",
            dependencies: [
                "FetchedTableKit", "FetchedResults", "FetchedResultsUI", "SQLiteStore", "TestSupport",
                "PostgreSQLReplica", "PostgreSQLClient", "FaultInjection",
            ]
        ),
    ]
)
