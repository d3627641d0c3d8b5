import Glibc

// Small wrappers so the rest of the module does not repeat platform imports.

let ENOENT_CODE: Int32 = ENOENT
let ENOTDIR_CODE: Int32 = ENOTDIR

/// `strerror` as a Swift string.
func errorText(_ code: Int32) -> String {
    guard let p = strerror(code) else { return "error \(code)" }
    return String(cString: p)
}
