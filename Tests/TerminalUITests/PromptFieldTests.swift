import Testing

@testable import TerminalUI

/// The status line's question (``PromptField``): the answer typed after the prompt, Enter commits,
/// Esc cancels, an answer refused is shown again with its error under it until the next edit.
@Suite struct PromptFieldTests {
    @Test func enterCommitsTheAnswerAndEscCancels() {
        let field = PromptField(prompt: "Save as: ")
        var commits: [String] = []
        var cancelled = 0
        field.onCommit = { commits.append($0) }
        field.onCancel = { cancelled += 1 }
        #expect(field.handle(.character("a")) == .ignored)  // inactive
        field.activate(text: "books")
        widgetSend(field, widgetTyping(".csv"))
        #expect(field.handle(.enter) == .dismiss)
        #expect(commits == ["books.csv"])
        #expect(!field.isActive)
        field.activate(text: "x")
        #expect(field.handle(.escape) == .dismiss)
        #expect(cancelled == 1)
        #expect(commits == ["books.csv"])
    }

    @Test func aRefusedAnswerShowsItsErrorUnderItUntilTheNextEdit() {
        let field = PromptField(prompt: "Save as: ")
        field.trailingText = ".csv .tsv"
        field.activate(text: "books.txt")
        field.setError("use .csv or .tsv")
        var canvas = Canvas(width: 40, height: 3)
        field.render(into: &canvas, frame: canvas.bounds, at: 0)
        let lines = canvas.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[1].hasPrefix("Save as: books.txt"), "\(canvas.text)")
        #expect(lines[1].hasSuffix(".csv .tsv"), "\(canvas.text)")
        #expect(lines[2].hasPrefix("         use .csv or .tsv"), "the error under the answer: \(canvas.text)")
        widgetSend(field, [.backspace])
        #expect(field.errorMessage == nil, "an edit clears the error")
        var after = Canvas(width: 40, height: 3)
        field.render(into: &after, frame: after.bounds, at: 0)
        let afterLines = after.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(afterLines[2].hasPrefix("Save as: books.tx"), "one line again, at the bottom: \(after.text)")
        field.setError("again")
        field.activate(text: "books.csv")
        #expect(field.errorMessage == nil, "opened again without the error")
    }
}
