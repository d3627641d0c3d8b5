import TestSupport

// The end-to-end harness moved to TestSupport (fetchedtable's tests use it too);
// these names keep it in reach of every file of this suite.
typealias TmuxSession = TestSupport.TmuxSession
typealias ProcessRunner = TestSupport.ProcessRunner
typealias ProcessResult = TestSupport.ProcessResult
typealias EndToEndError = TestSupport.EndToEndError
let generousDeadline = TestSupport.generousDeadline
