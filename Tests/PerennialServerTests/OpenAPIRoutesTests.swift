import Foundation
import Hummingbird
import PerennialServer
import Testing

/// docs/openapi.yaml documents exactly the routes the server registers: every (method, path) of
/// ``buildRouter(dependencies:)`` (read through Hummingbird's `Router.routes`) is in the file's
/// `paths:`, and every documented operation is registered.
@Suite struct OpenAPIRoutesTests {
    /// `docs/openapi.yaml`, found from this file's place in the repository.
    static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/openapi.yaml")

    @Test func everyRegisteredRouteIsDocumentedAndEveryDocumentedRouteIsRegistered() throws {
        let documented = try Self.documentedOperations(yaml: String(contentsOf: Self.document, encoding: .utf8))
        let registered = try Self.registeredOperations()
        #expect(!documented.isEmpty, "no operation found under paths: in \(Self.document.path)")
        #expect(!registered.isEmpty, "the router registers no route")
        let undocumented = registered.subtracting(documented).sorted()
        let unregistered = documented.subtracting(registered).sorted()
        #expect(
            undocumented.isEmpty,
            "registered by the server but not documented in docs/openapi.yaml:\n\(undocumented.map { "  \($0)" }.joined(separator: "\n"))")
        #expect(
            unregistered.isEmpty,
            "documented in docs/openapi.yaml but not registered by the server:\n\(unregistered.map { "  \($0)" }.joined(separator: "\n"))")
    }

    @Test func theReaderFindsPathsAndMethodsOnly() {
        let yaml = """
            openapi: 3.1.0
            components:
              parameters:
                appUserId:
                  get: not a path
            paths:
              /v1/subscribers/{appUserId}:
                get:
                  parameters: [{ $ref: '#/components/parameters/appUserId' }]
                  responses:
                    '200': { description: ok }
                parameters: []
              /health/live:
                post: { summary: x }
                get:
                  summary: y
            webhooks: {}
            """
        #expect(Self.documentedOperations(yaml: yaml) == ["GET /health/live", "GET /v1/subscribers/{appUserId}", "POST /health/live"])
        #expect(Self.normalized("/v1/subscribers/:appUserId/") == "/v1/subscribers/{appUserId}")
        #expect(Self.normalized("v1/subscribers/{appUserId}") == "/v1/subscribers/{appUserId}")
    }

    /// `METHOD /path` of every route the server's router registers.
    static func registeredOperations() throws -> Set<String> {
        let storage = try ServerHarness.temporarySQLite()
        let router = buildRouter(dependencies: ServerDependencies(apps: try AppRegistry([]), storage: storage))
        return Set(router.routes.map { "\($0.method.rawValue) \(normalized($0.path.description))" })
    }

    /// `METHOD /path` of every operation under the top-level `paths:` of an OpenAPI document:
    /// a path is a key indented by two spaces that starts with `/`, an operation a method key
    /// indented by four under it. A line reader is enough for our own file.
    static func documentedOperations(yaml: String) -> Set<String> {
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var operations = Set<String>()
        var inPaths = false
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indent = line.prefix { $0 == " " }.count
            if indent == 0 {
                inPaths = trimmed == "paths:"
                path = nil
                continue
            }
            guard inPaths else { continue }
            if indent == 2 {
                path = trimmed.hasPrefix("/") && trimmed.hasSuffix(":") ? String(trimmed.dropLast()) : nil
            } else if indent == 4, let path, let colon = trimmed.firstIndex(of: ":") {
                let key = String(trimmed[..<colon])
                if methods.contains(key) { operations.insert("\(key.uppercased()) \(normalized(path))") }
            }
        }
        return operations
    }

    /// One spelling for a path: a leading slash, no trailing one, parameters as `{name}`
    /// (Hummingbird's `:name` and OpenAPI's `{name}` alike).
    static func normalized(_ path: String) -> String {
        let segments = path.split(separator: "/").map { segment in
            segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
        }
        return "/" + segments.joined(separator: "/")
    }
}
