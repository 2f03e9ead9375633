import Foundation
import PerennialLiveHarness

#if canImport(Glibc)
import Glibc
#endif

/// Debian's `chromium`, headless, driven through the DevTools protocol over the pipe Chromium
/// opens on descriptors 3 and 4 (`--remote-debugging-pipe`): JSON messages ended by a NUL byte.
/// No port, no WebSocket, no package: a test drives one page as a user would — types into
/// fields, presses Enter, clicks — and reads the page back.
///
/// Used from one task; reads never block a thread (the descriptor is non-blocking and a wait
/// sleeps between polls), because the server under test runs in the same process.
final class HeadlessChromium {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The browser's executable: `PERENNIAL_CHROMIUM`, else Debian's `chromium` on the PATH.
    static var executable: String? {
        if let configured = ProcessInfo.processInfo.environment["PERENNIAL_CHROMIUM"] {
            return FileManager.default.isExecutableFile(atPath: configured) ? configured : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    private let pid: pid_t
    private let commands: Int32
    private let answers: Int32
    private let profile: URL
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var session = ""

    /// Starts the browser with a fresh profile and one page of `width`×`height` CSS pixels.
    init(width: Int, height: Int) async throws {
        guard let executable = Self.executable else { throw Failure(description: "chromium is not installed") }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("perennial-chromium-\(UUID().uuidString)")
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "pipe failed") }
        for descriptor in toBrowser + fromBrowser { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // Chromium reads commands on 3 and writes answers on 4.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let childRead = fcntl(toBrowser[0], F_DUPFD_CLOEXEC, 10)
        let childWrite = fcntl(fromBrowser[1], F_DUPFD_CLOEXEC, 10)
        posix_spawn_file_actions_adddup2(&actions, childRead, 3)
        posix_spawn_file_actions_adddup2(&actions, childWrite, 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of this process: a listening socket of a server another test runs here
        // would stay open in the browser and keep that server from binding its port again.
        // (glibc ignores a close of a descriptor that is no longer open.)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for descriptor in open where descriptor > 4 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let arguments = [
            executable, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--user-data-dir=\(profile.path)",
            "--window-size=\(width),\(height)", "about:blank",
        ]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        for descriptor in [toBrowser[0], fromBrowser[1], childRead, childWrite] { Glibc.close(descriptor) }
        guard spawned == 0 else {
            Glibc.close(toBrowser[1])
            Glibc.close(fromBrowser[0])
            throw Failure(description: "cannot start \(executable): error \(spawned)")
        }
        self.pid = pid
        commands = toBrowser[1]
        answers = fromBrowser[0]
        _ = fcntl(answers, F_SETFL, fcntl(answers, F_GETFL) | O_NONBLOCK)

        let target = try await send("Target.createTarget", ["url": "about:blank"], browserLevel: true)
        guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target: \(target)") }
        let attached = try await send("Target.attachToTarget", ["targetId": targetID, "flatten": true], browserLevel: true)
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "not attached: \(attached)") }
        self.session = session
        try await resize(width: width, height: height)
    }

    /// Closes the browser and removes its profile.
    func close() async {
        _ = try? await send("Browser.close", [:], browserLevel: true, timeout: 5)
        var status: Int32 = 0
        var exited = false
        for _ in 0..<50 where !exited {
            exited = waitpid(pid, &status, WNOHANG) == pid
            if !exited { try? await Task.sleep(for: .milliseconds(100)) }
        }
        // Only a child not yet reaped is killed: a reaped one's id may belong to another process.
        if !exited {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        Glibc.close(commands)
        Glibc.close(answers)
        try? FileManager.default.removeItem(at: profile)
    }

    // MARK: What a user does

    /// Opens `url` and waits until the page it leads to (after redirects) satisfies `matches`.
    func open(_ url: URL, landingOn matches: @escaping (String) -> Bool) async throws {
        try await navigating(matches) { _ = try await send("Page.navigate", ["url": url.absoluteString]) }
    }

    /// Lays the page out for a screen `width` CSS pixels wide (a phone under 600).
    func resize(width: Int, height: Int) async throws {
        _ = try await send("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600])
    }

    /// Types `text` into the field `selector`, as a user does.
    func type(_ text: String, into selector: String) async throws {
        let focused = try await evaluate("(() => { const e = document.querySelector(\(Self.literal(selector))); if (!e) return false; e.focus(); return true })()")
        guard focused as? Bool == true else { throw Failure(description: "no field \(selector) on \(try await location())") }
        _ = try await send("Input.insertText", ["text": text])
    }

    /// Presses Enter in the focused field.
    func pressEnter() async throws {
        for type in ["keyDown", "keyUp"] {
            var event: [String: Any] = ["type": type, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13]
            if type == "keyDown" { event["text"] = "\r" }
            _ = try await send("Input.dispatchKeyEvent", event)
        }
    }

    /// Clicks the middle of the first element `selector` matches, scrolled into view.
    func click(_ selector: String) async throws {
        let box = try await evaluate(
            """
            (() => { const e = document.querySelector(\(Self.literal(selector))); if (!e) return null;
              e.scrollIntoView({block: "center"}); const r = e.getBoundingClientRect();
              return [r.left + r.width / 2, r.top + r.height / 2] })()
            """)
        guard let point = box as? [Double], point.count == 2 else { throw Failure(description: "nothing to click at \(selector)") }
        for type in ["mousePressed", "mouseReleased"] {
            _ = try await send("Input.dispatchMouseEvent", ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1])
        }
    }

    /// Runs `action` (a submit, a click on a link) and waits until the page it leads to loaded
    /// and its path (with its query) satisfies `matches`: a new document, even at the same path.
    ///
    /// The mark, the load state and the path are read in one evaluation, so they describe one
    /// document: read apart, the old page could pass the path and load checks and the new one,
    /// still being parsed, the mark's, and a half-read page came back.
    func navigating(_ matches: @escaping (String) -> Bool, by action: () async throws -> Void) async throws {
        _ = try await evaluate("window.perennialOldPage = true")
        try await action()
        let deadline = Date().addingTimeInterval(20)
        var last = ""
        while Date() < deadline {
            // Evaluating fails while one document replaces another; the next try reads the new one.
            if let state = try? await evaluate(
                "[window.perennialOldPage === true, document.readyState, location.pathname + location.search].join(' ')") as? String
            {
                last = state
                let parts = state.split(separator: " ", maxSplits: 2)
                if parts.count == 3, parts[0] == "false", parts[1] == "complete", matches(String(parts[2])) { return }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "no new page loaded after the action in 20 s; last seen (old page, state, path) \(last)")
    }

    func location() async throws -> String {
        try await evaluate("location.pathname + location.search") as? String ?? ""
    }

    /// The text a user sees on the page, once it shows some: a page that has just loaded, on a
    /// busy machine, once answered with no text at all (seen once in a full run that took the
    /// dashboard test 94 s instead of 4).
    func visibleText() async throws -> String {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let text = try await evaluate("document.body ? document.body.innerText : ''") as? String ?? ""
            if !text.isEmpty || Date() >= deadline { return text }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The value of a JavaScript expression in the page (which the page's own policy does not
    /// restrict: the protocol runs it, not the page).
    func evaluate(_ expression: String) async throws -> Any? {
        let answer = try await send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = answer["exceptionDetails"] { throw Failure(description: "\(expression): \(exception)") }
        return (answer["result"] as? [String: Any])?["value"]
    }

    /// A PNG of the whole page.
    func screenshot() async throws -> Data {
        let answer = try await send("Page.captureScreenshot", ["format": "png", "captureBeyondViewport": true])
        guard let base64 = answer["data"] as? String, let png = Data(base64Encoded: base64) else { throw Failure(description: "no screenshot") }
        return png
    }

    /// The cookies the browser holds for `url`, as the protocol describes them.
    func cookies(for url: URL) async throws -> [[String: Any]] {
        try await send("Network.getCookies", ["urls": [url.absoluteString]])["cookies"] as? [[String: Any]] ?? []
    }

    // MARK: The protocol

    /// Sends one command and waits for its answer, skipping events.
    private func send(_ method: String, _ parameters: [String: Any], browserLevel: Bool = false, timeout: TimeInterval = 20) async throws
        -> [String: Any]
    {
        nextID += 1
        let id = nextID
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if !browserLevel { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(description: "the browser closed its pipe (\(method))") }
            offset += written
        }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            while let end = buffer.firstIndex(of: 0) {
                let data = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any], answer["id"] as? Int == id else { continue }
                if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
                return answer["result"] as? [String: Any] ?? [:]
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
            } else if count == 0 {
                throw Failure(description: "the browser exited (\(method))")
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        throw Failure(description: "no answer to \(method) in \(Int(timeout)) s")
    }

    /// `text` as a JavaScript string literal.
    private static func literal(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}

extension HeadlessChromium {
    /// Runs `body` against a live server and App Store simulator in a browser of this size, and
    /// stops both however it ends: what every browser test of the live system does around its steps.
    static func withLiveSystem(width: Int, height: Int, _ body: (HeadlessChromium, LiveSystem) async throws -> Void) async throws {
        let system = try await LiveSystem.start()
        let browser: HeadlessChromium
        do {
            browser = try await HeadlessChromium(width: width, height: height)
        } catch {
            await system.stop()
            throw error
        }
        do {
            try await body(browser, system)
        } catch {
            await browser.close()
            await system.stop()
            throw error
        }
        await browser.close()
        await system.stop()
    }
}
