import Dispatch

extension TerminalRunLoop {
    /// Queues `body` to run on the loop's thread before its next frame (see ``RunLoopMailbox``).
    ///
    /// The loop's one way in from another thread; a worker thread, which cannot hold the loop,
    /// holds its ``mailbox`` and calls the same `post(_:)` there. `run()` runs what was posted
    /// in the iteration the post wakes it: the picture it changes is on the terminal in that
    /// iteration's frame.
    ///
    ///     loop.post { print("runs on the loop's thread, before the next frame") }
    public func post(_ body: @escaping @Sendable () -> Void) {
        mailbox.post(body)
    }

    /// A function any thread may call: each call posts `body` to this loop, which runs it
    /// on its thread. Made on the loop's thread, `body` may use the views (capture them
    /// weakly or `unowned`: the function may outlive them, on a worker that keeps it).
    ///
    ///     let wake = loop.poster { [weak list] in list?.showResults() }
    ///     controller.startInBackground(.fetch, onFinish: wake)   // called on the worker thread
    public func poster(_ body: @escaping () -> Void) -> @Sendable () -> Void {
        let body = LoopOwned(body)
        let mailbox = self.mailbox
        return { mailbox.post { body.value() } }
    }

    /// A function any thread may call with a value: each call posts `body` with that value to
    /// this loop, which runs it on its thread. The value is handed over (`sending`): the
    /// caller does not touch it afterwards, so it need not be `Sendable`.
    ///
    ///     let showProgress = loop.poster { [weak screen] (rows: Int) in screen?.progressText = "\(rows) rows" }
    ///     Thread { for rows in stride(from: 0, to: 1_000_000, by: 50_000) { showProgress(rows) } }.start()
    public func poster<Value>(_ body: @escaping (Value) -> Void) -> @Sendable (sending Value) -> Void {
        let body = LoopOwned(body)
        let mailbox = self.mailbox
        return { value in
            let value = HandedOver(value: value)
            mailbox.post { body.value(value.value) }
        }
    }

    /// Runs `work` off the loop's thread (a global queue), then `then` with its result on
    /// the loop's thread: "do this in the background, then show it". The result is handed
    /// over, not shared: `work` makes it and never touches it again.
    ///
    ///     loop.perform {
    ///         try Data(contentsOf: url)                 // off the loop's thread
    ///     } then: { [weak screen] result in             // on it, before the next frame
    ///         screen?.show(result)
    ///     }
    public func perform<Value, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> sending Value,
        then: @escaping (Result<Value, Failure>) -> Void
    ) {
        let deliver = poster(then)
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(Failure) {
                deliver(.success(try work()))
            } catch {
                deliver(.failure(error))
            }
        }
    }

    /// Runs what was posted (``post(_:)``), oldest first, on this thread; returns how many.
    /// `run()` calls it in every iteration, before the tickers and the frame; a test or a
    /// script that drives the loop itself calls it, waiting up to `timeout` seconds for the
    /// first post when none is there yet (the background work it expects to finish).
    ///
    ///     list.startLoading()                                // posts when the fetch is done
    ///     loop.runPosted(waitingUpTo: 10)                    // shows the results
    ///     loop.draw()
    @discardableResult
    public func runPosted(waitingUpTo timeout: Double = 0) -> Int {
        if timeout > 0 { _ = mailbox.wait(timeout: timeout) }
        let bodies = mailbox.take()
        for body in bodies { body() }
        return bodies.count
    }

    /// True while something posted waits to run.
    var hasPosted: Bool { !mailbox.isEmpty }
}
