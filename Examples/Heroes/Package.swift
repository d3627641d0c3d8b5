// swift-tools-version:6.0
// The HeroList tutorial's two tabs of heroes, on the FetchedTable libraries:
//   swift run --package-path Examples/Heroes heroes [--db PATH]
import PackageDescription

let package = Package(
    name: "Heroes",
    dependencies: [.package(name: "FetchedTable", path: "../..")],
    targets: [
        .target(
            name: "HeroList",
            dependencies: [
                .product(name: "SQLiteStore", package: "FetchedTable"),
                .product(name: "FetchedResults", package: "FetchedTable"),
                .product(name: "TerminalUI", package: "FetchedTable"),
                .product(name: "FetchedResultsUI", package: "FetchedTable"),
            ]
        ),
        .executableTarget(name: "heroes", dependencies: ["HeroList"]),
        .testTarget(name: "HeroListTests", dependencies: ["HeroList"]),
    ]
)
