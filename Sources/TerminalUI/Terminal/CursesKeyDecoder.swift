import CNCurses

/// Turns what `wget_wch` returns into `InputEvent`s.
///
/// Pure functions over numbers (no curses calls), so tests can check the
/// mapping without a terminal. `KEY_RESIZE` and `KEY_MOUSE` need the screen's
/// state and are decoded by `CursesBackend` itself.
enum CursesKeyDecoder {
    /// A character `wget_wch` returned with `OK`.
    static func event(character code: UInt32) -> InputEvent? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 0: return .control("@")
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(0x60 + code))))
        case 28: return .control("\\")
        case 29: return .control("]")
        case 30: return .control("^")
        case 31: return .control("_")
        case 0x80..<0xA0: return nil  // C1 controls: nothing a person typed
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// A key code `wget_wch` returned with `KEY_CODE_YES`.
    static func event(keyCode code: Int32) -> InputEvent? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME, KEY_FIND, KEY_A1: return .home
        case KEY_END, KEY_SELECT, KEY_C1: return .end
        case KEY_BTAB: return .backTab
        case KEY_DC: return .delete
        case KEY_IC: return .insert
        case KEY_BACKSPACE: return .backspace
        case KEY_ENTER: return .enter
        case KEY_A3: return .pageUp  // keypad 9 without num lock
        case KEY_C3: return .pageDown  // keypad 3
        case (KEY_F0 + 1)...(KEY_F0 + 12): return .function(Int(code - KEY_F0))
        default: return nil
        }
    }
}
