// swift-tools-version:6.1
import PackageDescription

/// One set of settings for every target: Swift 6 language mode plus the upcoming features that keep
/// imports honest (`InternalImportsByDefault`, `MemberImportVisibility`) and existentials explicit.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Perennial",
    // The SDK's floor on every Apple platform it runs on: Observation's (`PerennialModel`), the
    // first release of each with it.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PerennialCore", targets: ["PerennialCore"]),
        .library(name: "PerennialAppStore", targets: ["PerennialAppStore"]),
        .library(name: "PerennialStorage", targets: ["PerennialStorage"]),
        .library(name: "PerennialSQLite", targets: ["PerennialSQLite"]),
        .library(name: "PerennialPostgres", targets: ["PerennialPostgres"]),
        .library(name: "PerennialServer", targets: ["PerennialServer"]),
        .library(name: "PerennialSimulator", targets: ["PerennialSimulator"]),
        .library(name: "PerennialClient", targets: ["PerennialClient"]),
        .executable(name: "perennial", targets: ["perennial"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "PerennialCore",
            swiftSettings: swiftSettings
        ),
        // The client API's wire types, Foundation only: the server writes them and the SDK reads them,
        // so the contract has one Swift copy (ARCHITECTURE.md, "One wire contract").
        .target(
            name: "PerennialWire",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialAppStore",
            dependencies: [
                "PerennialCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialStorage",
            dependencies: ["PerennialCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialSQLite",
            dependencies: [
                "PerennialCore",
                "PerennialStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own C API, which GRDB links, for a rebuild's column bytes read in place.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialPostgres",
            dependencies: [
                "PerennialCore",
                "PerennialStorage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialSimulator",
            dependencies: [
                "PerennialCore",
                "PerennialWire",
                "PerennialAppStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialServer",
            dependencies: [
                "PerennialCore",
                "PerennialWire",
                "PerennialAppStore",
                "PerennialStorage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialSandbox",
            dependencies: [
                "PerennialCore",
                "PerennialAppStore",
                "PerennialStorage",
                "PerennialServer",
                "PerennialSimulator",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialLoad",
            dependencies: [
                "PerennialAppStore",
                "PerennialSimulator",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialClient",
            dependencies: [
                "PerennialWire",
                .target(name: "StoreKitInterface", condition: .when(platforms: [.linux])),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // StoreKit's public API as the client's adapters use it, so they compile and are tested on
        // Linux; never a product, never linked on Apple platforms (the real StoreKit is used there).
        .target(
            name: "StoreKitInterface",
            // The scripted App Store checks promotional offer signatures as StoreKit does (ECDSA P-256).
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "perennial",
            dependencies: [
                "PerennialCore",
                "PerennialWire",
                "PerennialAppStore",
                "PerennialStorage",
                "PerennialSQLite",
                "PerennialPostgres",
                "PerennialServer",
                "PerennialSimulator",
                "PerennialSandbox",
                "PerennialLoad",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "perennial-example",
            dependencies: ["PerennialClient"],
            path: "Examples/perennial-example",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "perennial-bench",
            dependencies: [
                "PerennialCore",
                "PerennialAppStore",
                "PerennialStorage",
                "PerennialSQLite",
                "PerennialPostgres",
                "PerennialStorageContract",
                "PerennialServer",
                "PerennialSimulator",
                "PerennialLoad",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Benchmarks/perennial-bench",
            swiftSettings: swiftSettings
        ),
        // Every parser of outside data as a fuzz target, for the fuzz suite (PerennialServerTests'
        // FuzzTests) and for coverage-guided runs with libFuzzer (`Scripts/fuzz`).
        .target(
            name: "PerennialFuzzTargets",
            dependencies: [
                "PerennialCore", "PerennialWire", "PerennialAppStore", "PerennialServer",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/PerennialFuzzTargets",
            swiftSettings: swiftSettings
        ),
        // Replays inputs through a fuzz target; built with `-sanitize=fuzzer -DLIBFUZZER`
        // (`Scripts/fuzz`), it is libFuzzer's driver instead.
        .executableTarget(
            name: "perennial-fuzz",
            dependencies: ["PerennialFuzzTargets"],
            path: "Tests/perennial-fuzz",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialTestSupport",
            dependencies: ["PerennialCore"],
            path: "Tests/PerennialTestSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialLiveHarness",
            dependencies: [
                "PerennialAppStore", "PerennialCore",
                "PerennialStorage",
                "PerennialSQLite",
                "PerennialServer",
                "PerennialSimulator",
                "PerennialSandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/PerennialLiveHarness",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialEndToEndTests",
            dependencies: [
                "PerennialLiveHarness",
                "PerennialSandbox",
                "PerennialCore",
                "PerennialStorage",
                "PerennialServer",
                "PerennialSimulator",
                "PerennialAppStore",
                "PerennialWire",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialStorageContract",
            dependencies: ["PerennialCore", "PerennialStorage"],
            path: "Tests/PerennialStorageContract",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialStorageTests",
            dependencies: ["PerennialCore", "PerennialStorage", "PerennialStorageContract"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialSQLiteTests",
            dependencies: [
                "PerennialCore", "PerennialStorage", "PerennialSQLite", "PerennialStorageContract",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialPostgresTests",
            dependencies: [
                "PerennialCore",
                "PerennialStorage",
                "PerennialPostgres",
                "PerennialStorageContract",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialSimulatorTests",
            dependencies: [
                "PerennialSimulator", "PerennialCore", "PerennialAppStore", "PerennialTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialServerTests",
            dependencies: [
                "PerennialServer", "PerennialWire", "PerennialCore", "PerennialAppStore", "PerennialStorage", "PerennialSQLite",
                "PerennialPostgres", "PerennialSimulator", "PerennialTestSupport", "PerennialStorageContract", "PerennialFuzzTargets",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Golden", "FuzzCorpus"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialLoadTests",
            dependencies: ["PerennialLoad", "PerennialAppStore", "PerennialCore", "PerennialSimulator"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialClientTests",
            dependencies: [
                "PerennialClient",
                .target(name: "StoreKitInterface", condition: .when(platforms: [.linux])),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialClientLiveTests",
            dependencies: [
                "PerennialAppStore", "PerennialClient", "PerennialLiveHarness", "PerennialSimulator", "PerennialStorage", "PerennialCore", "PerennialServer",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialCoreTests",
            dependencies: ["PerennialCore", "PerennialTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialAppStoreTests",
            dependencies: [
                "PerennialAppStore",
                "PerennialTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PerennialCLITests",
            dependencies: [
                "perennial",
                "PerennialLiveHarness",
                "PerennialAppStore",
                "PerennialCore",
                "PerennialPostgres",
                "PerennialServer",
                "PerennialSimulator",
                "PerennialSQLite",
                "PerennialStorage",
                "PerennialStorageContract",
                "PerennialTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            exclude: ["Golden"],
            swiftSettings: swiftSettings
        ),
    ]
)
