/// Why the connected role may not change rows of a server table in each way (nil: it may),
/// read when the table is opened: the status line says it when the key is pressed.
struct PostgresWriteRefusals: Equatable {
    /// `d`: no DELETE privilege, or a delete whose undo could not be done.
    var delete: String?
    /// `e`: no UPDATE privilege.
    var update: String?
    /// `a`: no INSERT privilege.
    var insert: String?
}
