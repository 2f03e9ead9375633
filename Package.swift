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
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "PerennialCore", targets: ["PerennialCore"]),
        .library(name: "PerennialAppStore", targets: ["PerennialAppStore"]),
        .library(name: "PerennialStorage", targets: ["PerennialStorage"]),
        .library(name: "PerennialSQLite", targets: ["PerennialSQLite"]),
        .library(name: "PerennialPostgres", targets: ["PerennialPostgres"]),
        .executable(name: "perennial", targets: ["perennial"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
    ],
    targets: [
        .target(
            name: "PerennialCore",
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
            dependencies: ["PerennialCore", "PerennialAppStore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "perennial",
            dependencies: [
                "PerennialCore",
                "PerennialAppStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "perennial-bench",
            dependencies: [
                "PerennialCore",
                "PerennialAppStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Benchmarks/perennial-bench",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PerennialTestSupport",
            dependencies: ["PerennialCore"],
            path: "Tests/PerennialTestSupport",
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
            dependencies: ["PerennialCore", "PerennialStorage", "PerennialSQLite", "PerennialStorageContract"],
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
            dependencies: ["PerennialSimulator", "PerennialCore", "PerennialAppStore", "PerennialTestSupport"],
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
                "PerennialAppStore",
                "PerennialTestSupport",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
