import Glibc

extension Store {
    /// Creates the folder that will hold a store at `path`, and the folders above it that are
    /// missing (`mkdir -p`, mode 0755 less the umask): SQLite creates a missing file, not its folder.
    ///
    ///     let path = XDGBaseDirectories().data("books", "books.sqlite")
    ///     try Store.createFolder(for: path)
    ///     let store = try Store(path: path, model: model)
    ///
    /// - Throws: ``StoreError/cannotCreateFolder(path:errno:)`` naming the folder that could not be made.
    package static func createFolder(for path: String) throws(StoreError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path[..<slash].split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw StoreError.cannotCreateFolder(path: current, errno: errno)
            }
        }
    }
}
