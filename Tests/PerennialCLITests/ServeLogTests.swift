import Foundation
import PerennialTestSupport
import PerennialLiveHarness
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `perennial serve --log-format json`: every line a JSON object a log shipper can parse, and no
/// secret in any line — not the admin key, not a wrong key someone tried, not a session cookie —
/// after the requests that handle them.
@Suite struct ServeLogTests {
    @Test func jsonLogsParseAndNameNoSecret() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try FreePort.loopback()
        let adminKey = "sk_secret_\(UUID().uuidString)"
        let wrongKey = "sk_guess_\(UUID().uuidString)"
        let log = directory.appendingPathComponent("serve.log")
        try Data().write(to: log)
        let process = ChildProcess()
        process.executableURL = try CLIProcess.executable()
        process.arguments = [
            "serve", "--simulator", "--no-simulator-seed", "--log-format", "json", "--port", String(port),
            "--simulator-port", String(try FreePort.loopback()), "--database", "sqlite:\(directory.path)/p.sqlite",
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["PERENNIAL_ADMIN_KEY": adminKey]) { $1 }
        process.currentDirectoryURL = ServeSimulatorCommandTests.repositoryRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let base = "http://127.0.0.1:\(port)"
        var up = false
        for _ in 0..<200 where !up {
            up = (try? await ServeCommandTests.get(URL(string: "\(base)/health/ready")!))?.0 == 200
            if !up { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(up)

        #expect(try await Self.send("GET", "\(base)/admin/v1/subscribers/alice?app=demo", bearer: adminKey).status == 200)
        #expect(try await Self.send("GET", "\(base)/admin/v1/subscribers/alice?app=demo", bearer: wrongKey).status == 401)
        #expect(try await Self.send("GET", "\(base)/v1/subscribers/alice", bearer: "pk_demo").status == 200)
        let signIn = try await Self.send(
            "POST", "\(base)/dashboard/sign-in", body: "key=\(adminKey)&next=%2Fdashboard", contentType: "application/x-www-form-urlencoded")
        let cookie = try #require(signIn.cookie, "sign-in answered \(signIn.status)")
        let session = String(cookie.dropFirst("perennial_session=".count).prefix { $0 != ";" })
        #expect(session.count == 43)
        #expect(try await Self.send("GET", "\(base)/dashboard", cookie: "perennial_session=\(session)").status == 200)
        #expect(try await Self.send("POST", "\(base)/dashboard/sign-in", body: "key=\(wrongKey)", contentType: "application/x-www-form-urlencoded").status == 401)

        process.terminate()
        process.waitUntilExit()
        let lines = String(decoding: try Data(contentsOf: log), as: UTF8.self).split(separator: "\n")
        #expect(lines.count > 10)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["message"] is String && object?["level"] is String && object?["time"] is String, "\(line)")
            for secret in [adminKey, wrongKey, session] { #expect(!line.contains(secret), "a log line names a secret: \(line)") }
        }
        #expect(lines.contains { $0.contains(#""message":"authentication failed""#) })
    }

    struct Answer {
        var status: Int
        var cookie: String?
        var text: String
    }

    /// One request, redirects not followed, so a sign-in's cookie is seen.
    static func send(
        _ method: String, _ url: String, bearer: String? = nil, body: String? = nil, contentType: String? = nil, cookie: String? = nil
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        request.httpBody = body.map { Data($0.utf8) }
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        return Answer(status: http?.statusCode ?? 0, cookie: http?.value(forHTTPHeaderField: "Set-Cookie"), text: String(decoding: data, as: UTF8.self))
    }

    final class NoRedirects: NSObject, URLSessionTaskDelegate {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
}
