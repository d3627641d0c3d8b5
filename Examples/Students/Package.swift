// swift-tools-version:6.0
// The Students tutorial's sectioned list, on the FetchedTable libraries:
//   swift run --package-path Examples/Students students [--db PATH]
import PackageDescription

let package = Package(
    name: "Students",
    dependencies: [.package(name: "FetchedTable", path: "../..")],
    targets: [
        .target(
            name: "StudentList",
            dependencies: [
                .product(name: "SQLiteStore", package: "FetchedTable"),
                .product(name: "FetchedResults", package: "FetchedTable"),
                .product(name: "TerminalUI", package: "FetchedTable"),
                .product(name: "FetchedResultsUI", package: "FetchedTable"),
            ]
        ),
        .executableTarget(name: "students", dependencies: ["StudentList"]),
        .testTarget(name: "StudentListTests", dependencies: ["StudentList"]),
    ]
)
