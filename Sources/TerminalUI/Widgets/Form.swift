/// Labelled fields with a [ Save ] button: add/edit screens (a note, a password).
///
/// Tab/Shift-Tab move between fields and the button (as do ↑/↓ and Enter
/// where the field has no use for them: a `TextArea` keeps ↑/↓ and Enter
/// inside it except at its first and last line). Ctrl-S, or Enter on
/// [ Save ], calls `onSave` with the values by key: it returns true to close
/// the form (`.dismiss`) or false to keep it open, typically after setting
/// `errorMessage`. Esc calls `onCancel` and closes, after asking "Discard
/// changes?" when anything was edited. The form is modal: characters never
/// leak to the screen beneath.
///
///     let form = Form(title: "New Password", fields: [
///         .text("name", label: "Name", placeholder: "example.com"),
///         .text("user", label: "User ID"),
///         .secret("password", label: "Password"),
///         .multiline("notes", label: "Notes", height: 4),
///     ])
///     form.onSave = { values in
///         guard !(values["name"] ?? "").isEmpty else { form.errorMessage = "Name is required"; return false }
///         try? stash.addPassword(values); return true
///     }
///     form.onCancel = { }
///     loop.push(form)
public final class Form: View {
    /// One labelled control of the form.
    public struct Field {
        /// The key of this field's value in `values` and `onSave`.
        public let key: String
        /// Shown left of the control.
        public let label: String
        /// The editor (a `TextField`, `SecretField`, `TextArea` or your own `FormControl`).
        public let control: any FormControl

        /// A field with any control.
        public init(key: String, label: String, control: any FormControl) {
            self.key = key
            self.label = label
            self.control = control
        }

        /// A single-line `TextField`.
        public static func text(_ key: String, label: String, value: String = "", placeholder: String = "") -> Field {
            Field(key: key, label: label, control: TextField(text: value, placeholder: placeholder))
        }

        /// A multi-line `TextArea` of `height` rows.
        public static func multiline(_ key: String, label: String, value: String = "", height: Int = 5) -> Field {
            Field(key: key, label: label, control: TextArea(text: value, preferredHeight: height))
        }

        /// A masked `SecretField` (Ctrl-R reveals when `allowsReveal`).
        public static func secret(_ key: String, label: String, value: String = "", allowsReveal: Bool = true) -> Field
        {
            let field = SecretField(text: value)
            field.allowsReveal = allowsReveal
            return Field(key: key, label: label, control: field)
        }
    }

    /// Bold, on the first line.
    public var title: String?
    /// The fields, top to bottom (also the Tab order).
    public let fields: [Field]
    /// The button's label.
    public var saveTitle = "Save"
    /// Shown under the button in the destructive colour; cleared by the next edit.
    public var errorMessage: String?
    /// The hint line at the bottom of the frame.
    public var hints = "Tab next · Ctrl-S save · Esc cancel"
    /// Ctrl-S or [ Save ]: receives the values by key; return true to close the form.
    public var onSave: (([String: String]) -> Bool)?
    /// Esc (after "Discard changes?" when edited): the form closes after this.
    public var onCancel: (() -> Void)?
    /// The focused field's index; `fields.count` is the [ Save ] button.
    public private(set) var focusIndex = 0

    private var initialValues: [String]
    private var discardDialog: ConfirmDialog?
    private var discardConfirmed = false
    private var hitAreas: [(index: Int, frame: Rect)] = []
    private var scrollOffset = 0

    /// A form with the focus on its first field.
    public init(title: String? = nil, fields: [Field]) {
        self.title = title
        self.fields = fields
        self.initialValues = fields.map { $0.control.value }
        focus(index: 0)
    }

    /// Current values by field key.
    public var values: [String: String] {
        var result: [String: String] = [:]
        for field in fields { result[field.key] = field.control.value }
        return result
    }

    /// The current value of the field with `key`.
    public func value(for key: String) -> String? {
        fields.first { $0.key == key }?.control.value
    }

    /// Empties every field (wiping secret fields in place) and forgets the values the form was
    /// made with; returns both, to be put back with ``restoreValues(_:)``: what an app does
    /// with an open form when it locks, so that no plaintext stays in it meanwhile.
    public func takeValues() -> (current: [String], initial: [String]) {
        let taken = (fields.map { $0.control.value }, initialValues)
        for field in fields {
            if let secret = field.control as? SecretField {
                secret.wipe()
            } else if let text = field.control as? TextField {
                text.wipe()
            } else {
                field.control.value = ""
            }
        }
        initialValues = fields.map { _ in "" }
        return taken
    }

    /// Puts back what ``takeValues()`` took (the edits, and what "Discard changes?" compares with).
    public func restoreValues(_ values: (current: [String], initial: [String])) {
        for (field, value) in zip(fields, values.current) { field.control.value = value }
        if values.initial.count == fields.count { initialValues = values.initial }
    }

    /// True when any field differs from its value when the form was made.
    public var hasChanges: Bool {
        zip(fields, initialValues).contains { $0.control.value != $1 }
    }

    /// True while "Discard changes?" is showing.
    public var isConfirmingDiscard: Bool { discardDialog != nil }

    /// Moves the focus to the field with `key`.
    public func focus(key: String) {
        if let index = fields.firstIndex(where: { $0.key == key }) { focus(index: index) }
    }

    private var isOnSaveButton: Bool { focusIndex == fields.count }

    private func focus(index: Int) {
        let stops = fields.count + 1
        focusIndex = ((index % stops) + stops) % stops
        for (i, field) in fields.enumerated() { field.control.isFocused = (i == focusIndex) }
    }

    public func handle(_ event: InputEvent) -> EventResult {
        if let dialog = discardDialog {
            if dialog.handle(event) == .dismiss {
                discardDialog = nil
                if discardConfirmed {
                    onCancel?()
                    return .dismiss
                }
            }
            return .handled
        }
        switch event {
        case .control("s"):
            return save()
        case .escape:
            guard hasChanges else {
                onCancel?()
                return .dismiss
            }
            let dialog = ConfirmDialog(
                message: "Discard changes?",
                confirmTitle: "Discard",
                cancelTitle: "Keep Editing",
                confirmSelected: false
            )
            dialog.isDestructive = true
            dialog.onAnswer = { [unowned self] discard in self.discardConfirmed = discard }
            discardConfirmed = false
            discardDialog = dialog
            return .handled
        case .tab:
            focus(index: focusIndex + 1)
            return .handled
        case .backTab:
            focus(index: focusIndex - 1)
            return .handled
        case .mouseClick(let x, let y):
            if let hit = hitAreas.first(where: { $0.frame.contains(x: x, y: y) }) {
                if hit.index == fields.count && isOnSaveButton { return save() }
                focus(index: hit.index)
            }
            return .handled
        case .resize:
            return .handled
        default:
            break
        }
        if isOnSaveButton {
            switch event {
            case .enter, .character(" "): return save()
            case .up, .left:
                focus(index: focusIndex - 1)
                return .handled
            case .down:
                focus(index: 0)
                return .handled
            case .character: return .handled
            default: return .ignored
            }
        }
        let control = fields[focusIndex].control
        // The value is compared only while an error shows (it is the whole text: O(n) per key).
        let before = errorMessage == nil ? nil : control.value
        let result = control.handle(event)
        if let before, control.value != before { errorMessage = nil }
        if result != .ignored { return result == .dismiss ? .handled : result }
        switch event {
        case .enter, .down:
            focus(index: focusIndex + 1)
            return .handled
        case .up:
            focus(index: focusIndex - 1)
            return .handled
        case .character: return .handled
        default: return .ignored
        }
    }

    private func save() -> EventResult {
        errorMessage = nil
        let close = onSave?(values) ?? true
        if close {
            initialValues = fields.map { $0.control.value }
            return .dismiss
        }
        return .handled
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        hitAreas.removeAll()
        let labelWidth = min(fields.map { DisplayWidth.of($0.label) }.max() ?? 0, max(4, frame.width / 3))
        let controlX = frame.x + 1 + labelWidth + 2
        let controlWidth = max(1, frame.maxX - 1 - controlX)
        var top = frame.y
        if let title, frame.height > 4 {
            canvas.put(title, x: frame.x + 1, y: top, attributes: .bold, maxWidth: frame.width - 2)
            top += 2
        }
        let bottom = frame.maxY - 1  // the hint line
        let available = max(1, bottom - top)

        // Rows of every stop: fields, a blank line, the button, the error line.
        var heights = fields.map { max(1, $0.control.preferredHeight) }
        let fixed = fields.count + 2 + (errorMessage == nil ? 0 : 1)
        var needed = heights.reduce(0, +) + 2 + (errorMessage == nil ? 0 : 1)
        // Shrink multi-line fields (largest first) when the frame is short.
        while needed > available, let largest = heights.indices.max(by: { heights[$0] < heights[$1] }),
            heights[largest] > 1, needed > fixed
        {
            heights[largest] -= 1
            needed -= 1
        }
        var offsets: [Int] = []
        var y = 0
        for height in heights {
            offsets.append(y)
            y += height
        }
        let buttonOffset = y + 1
        let focusTop = isOnSaveButton ? buttonOffset : offsets[focusIndex]
        let focusBottom = isOnSaveButton ? buttonOffset + 1 : offsets[focusIndex] + heights[focusIndex]
        if focusTop < scrollOffset { scrollOffset = focusTop }
        if focusBottom > scrollOffset + available { scrollOffset = focusBottom - available }
        scrollOffset = max(0, min(scrollOffset, needed - available))

        for (index, field) in fields.enumerated() {
            let rowY = top + offsets[index] - scrollOffset
            let height = heights[index]
            guard rowY + height > top, rowY < top + available else { continue }
            let focused = index == focusIndex
            let labelCells = min(DisplayWidth.of(field.label), labelWidth)
            if rowY >= top {
                canvas.put(
                    field.label,
                    x: frame.x + 1 + labelWidth - labelCells,
                    y: rowY,
                    attributes: focused ? .bold : .dim,
                    maxWidth: labelWidth
                )
            }
            let visibleTop = max(rowY, top)
            let visibleBottom = min(rowY + height, top + available)
            guard visibleBottom > visibleTop else { continue }
            let controlFrame = Rect(x: controlX, y: visibleTop, width: controlWidth, height: visibleBottom - visibleTop)
            field.control.render(into: &canvas, frame: controlFrame, at: time)
            hitAreas.append((index, controlFrame))
        }
        let buttonY = top + buttonOffset - scrollOffset
        if buttonY >= top && buttonY < top + available {
            let label = "[ \(saveTitle) ]"
            let width = canvas.put(
                label,
                x: controlX,
                y: buttonY,
                attributes: isOnSaveButton ? [.reverse, .bold] : .bold,
                maxWidth: controlWidth
            )
            hitAreas.append((fields.count, Rect(x: controlX, y: buttonY, width: width, height: 1)))
        }
        if let errorMessage {
            let errorY = min(buttonY + 1, bottom - 1)
            if errorY >= top {
                canvas.put(
                    errorMessage,
                    x: controlX,
                    y: errorY,
                    attributes: [.bold, .destructive],
                    maxWidth: controlWidth
                )
            }
        }
        if bottom > top {
            canvas.put(hints, x: frame.x + 1, y: bottom, attributes: .dim, maxWidth: frame.width - 2)
        }
        if isOnSaveButton { canvas.cursor = nil }
        if let discardDialog {
            canvas.cursor = nil
            discardDialog.render(into: &canvas, frame: frame, at: time)
        }
    }
}
