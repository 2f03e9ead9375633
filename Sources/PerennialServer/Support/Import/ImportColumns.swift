import Foundation
import PerennialCore
import PerennialStorage

/// How the records of a CSV in one of ``ImportInput/Format`` become rows, from the columns its
/// header names: found once, when the header is read, so every later record of a file of any
/// size is read the same way, whatever pass reads it.
struct ImportColumns {
    private let fieldCount: Int
    private let read: (CSVRows.Record) -> ImportInput.Row.Content

    /// The columns `header` names for `format`.
    /// - Throws: ``ImportInput/Unusable`` when a column the format needs is missing.
    init(header: CSVRows.Record, format: ImportInput.Format) throws(ImportInput.Unusable) {
        let columns = Names(header.fields)
        fieldCount = header.fields.count
        switch format {
        case .transactions:
            let user = try columns.require(Names.user, for: "app user ids")
            let ids = columns.all(Names.transaction)
            guard !ids.isEmpty else {
                throw ImportInput.Unusable(description: "no column of transaction ids (one of \(Names.transaction.joined(separator: ", ")))")
            }
            read = { record in
                guard let user = Self.field(record, user) else { return .malformed("no app user id") }
                guard let id = ids.lazy.compactMap({ Self.field(record, $0) }).first else { return .malformed("no transaction id") }
                return Self.transaction(id, user: user, environment: nil)
            }
        case .revenueCat:
            let alias = columns.index(of: ["rc_last_seen_app_user_id_alias"])
            let original = try columns.require(["rc_original_app_user_id"], for: "RevenueCat's app user ids")
            let store = try columns.require(["store"], for: "RevenueCat's store")
            let sandbox = columns.index(of: ["is_sandbox"])
            let ids = columns.all(["original_store_transaction_id", "store_transaction_id"])
            guard !ids.isEmpty else { throw ImportInput.Unusable(description: "no column original_store_transaction_id or store_transaction_id") }
            read = { record in
                let storeName = Self.field(record, store) ?? ""
                guard storeName == "app_store" || storeName == "mac_app_store" else {
                    return .skipped("store \(storeName.isEmpty ? "(none)" : storeName) is not the App Store")
                }
                guard let user = alias.flatMap({ Self.field(record, $0) }) ?? Self.field(record, original) else {
                    return .malformed("no app user id")
                }
                guard let id = ids.lazy.compactMap({ Self.field(record, $0) }).first else { return .malformed("no store transaction id") }
                var environment: AppStoreEnvironment?
                if let sandbox, let flag = Self.field(record, sandbox) {
                    switch flag.lowercased() {
                    case "true", "t", "1": environment = .sandbox
                    case "false", "f", "0": environment = .production
                    default: return .malformed("is_sandbox is \(flag), neither true nor false")
                    }
                }
                return Self.transaction(id, user: user, environment: environment)
            }
        case .receipts:
            let user = try columns.require(Names.user, for: "app user ids")
            let receipt = try columns.require(["receipt", "receiptdata", "latestreceipt"], for: "receipts")
            read = { record in
                guard let user = Self.field(record, user) else { return .malformed("no app user id") }
                guard let receipt = Self.field(record, receipt) else { return .malformed("no receipt") }
                return Self.receipt(receipt, user: user)
            }
        }
    }

    /// The row `record` is.
    func row(_ record: CSVRows.Record) -> ImportInput.Row {
        guard record.fields.count == fieldCount else {
            return ImportInput.Row(line: record.line, content: .malformed("\(record.fields.count) fields where the header names \(fieldCount)"))
        }
        return ImportInput.Row(line: record.line, content: read(record))
    }

    private static func transaction(_ id: String, user: String, environment: AppStoreEnvironment?) -> ImportInput.Row.Content {
        guard id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }), id.count <= 64 else {
            return .malformed("transaction id \(id.prefix(64)) is not an Apple transaction id")
        }
        return .transaction(id, user: AppUserID(user), environment: environment)
    }

    /// A receipt row, of a CSV or of a directory's file.
    static func receipt(_ receipt: String, user: String) -> ImportInput.Row.Content {
        guard Data(base64Encoded: receipt) != nil else { return .malformed("the receipt is not base64") }
        return .receipt(receipt, user: AppUserID(user))
    }

    /// The field at `index`, trimmed; nil when empty.
    private static func field(_ record: CSVRows.Record, _ index: Int) -> String? {
        let value = record.fields[index].trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    /// A header's columns, found by name whatever their case and separators (`app_user_id`,
    /// `appUserId` and `App User ID` are one column).
    private struct Names {
        static let user = ["appuserid", "userid", "user"]
        static let transaction = ["originaltransactionid", "transactionid", "apptransactionid"]

        let names: [String]

        init(_ header: [String]) {
            names = header.map { $0.lowercased().filter { $0.isLetter || $0.isNumber } }
        }

        func index(of candidates: [String]) -> Int? {
            candidates.lazy.compactMap { names.firstIndex(of: $0.lowercased().filter { $0.isLetter || $0.isNumber }) }.first
        }

        func all(_ candidates: [String]) -> [Int] {
            candidates.compactMap { index(of: [$0]) }
        }

        func require(_ candidates: [String], for what: String) throws(ImportInput.Unusable) -> Int {
            guard let index = index(of: candidates) else {
                throw ImportInput.Unusable(description: "no column of \(what) in the header (one of \(candidates.joined(separator: ", ")))")
            }
            return index
        }
    }
}
