@testable import TerminalUI

/// A view showing one line of text, which a test changes to see what the loop draws.
final class LineView: View {
    var line: String
    init(_ line: String) { self.line = line }
    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        canvas.put(line, x: frame.x, y: frame.y)
    }
}
