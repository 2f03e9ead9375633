import PerennialCore
import PerennialStorage
import PostgresNIO

/// The analytics counters' reads and the rebuild's statements (``PerennialStorage/AnalyticsStorage``).
enum PostgresAnalyticsStatements {
    /// The change counters summed over every day before the range, then the range's rows; all of
    /// them as one row of arrays, column by column: PostgresNIO costs about 2 µs a row (a year by
    /// day is some 35,000 rows, 60–75 ms), an element of an array far less.
    struct Counters: PostgresPreparedStatement {
        static let sql = """
            SELECT array_agg(metric), array_agg(day), array_agg(segment), array_agg(currency), array_agg(value) FROM (
                SELECT metric, $4::int4 - 1 AS day, segment, currency, SUM(value)::int8 AS value FROM analytics_counters
                WHERE app_bundle_id = $1 AND environment = $2 AND dimension = $3 AND day < $4 AND (metric < 10 OR (metric >= 70 AND metric < 80)) AND $6
                GROUP BY metric, segment, currency
                UNION ALL
                SELECT metric, day, segment, currency, value FROM analytics_counters
                WHERE app_bundle_id = $1 AND environment = $2 AND dimension = $3 AND day >= $4 AND day <= $5 AND value <> 0
            ) AS counters
            """
        let request: AnalyticsCounterRequest

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(request.appBundleID)
            bindings.append(request.environment.rawValue)
            bindings.append(Int32(request.dimension.rawValue))
            bindings.append(Int32(request.fromDay))
            bindings.append(Int32(request.throughDay))
            bindings.append(request.summingEarlierChanges)
            return bindings
        }

        /// Every counter row; none when the arrays are null (no row matched).
        func decodeRow(_ row: PostgresRow) throws -> [AnalyticsCounterRow] {
            let (metrics, days, segments, currencies, values) = try row.decode(([Int32]?, [Int32]?, [String]?, [String]?, [Int64]?).self)
            guard let metrics, let days, let segments, let currencies, let values else { return [] }
            guard days.count == metrics.count, segments.count == metrics.count, currencies.count == metrics.count, values.count == metrics.count else {
                throw StorageError.corruptRow(table: "analytics_counters", key: request.appBundleID, reason: "the counters' columns differ in length")
            }
            return metrics.indices.map { index in
                AnalyticsCounterRow(
                    metric: AnalyticsMetric(rawValue: Int(metrics[index])), day: Int(days[index]), segment: segments[index],
                    currency: currencies[index], value: values[index])
            }
        }
    }

    /// A rebuild's batch of records: those of the purchases whose original transaction ids lie
    /// after `after`, up to `through`, as one row: each record's original transaction id, kind
    /// (0 a transaction, 1 a renewal info) and length in bytes, and all their JSON back to back in
    /// one text. PostgresNIO costs about 2 µs a row, and a rebuild reads a dozen a subscription.
    struct BatchRecords: PostgresPreparedStatement {
        static let sql = """
            SELECT array_agg(original_transaction_id), array_agg(kind), array_agg(octet_length(record)), string_agg(record, '') FROM (
                SELECT 0 AS kind, original_transaction_id, record FROM transactions
                WHERE original_transaction_id > $1 AND original_transaction_id <= $2
                UNION ALL
                SELECT 1, original_transaction_id, record FROM renewal_infos
                WHERE original_transaction_id > $1 AND original_transaction_id <= $2
            ) AS records
            """
        let after: String
        let through: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(after)
            bindings.append(through)
            return bindings
        }

        /// Nil when no record lies in the range.
        func decodeRow(_ row: PostgresRow) throws -> (ids: [String], kinds: [Int32], lengths: [Int32], json: String)? {
            let (ids, kinds, lengths, json) = try row.decode(([String]?, [Int32]?, [Int32]?, String?).self)
            guard let ids, let kinds, let lengths, let json else { return nil }
            guard kinds.count == ids.count, lengths.count == ids.count, lengths.reduce(0, { $0 + Int($1) }) == json.utf8.count else {
                throw StorageError.corruptRow(table: "transactions, renewal_infos", key: "after \(after)", reason: "the batch's records and their lengths disagree")
            }
            return (ids, kinds, lengths, json)
        }
    }

    /// The next batch of subscriptions after `after`, with the app of the evidence that last
    /// touched each (kept by the reconciliation schedule).
    struct Subscriptions: PostgresPreparedStatement {
        static let sql = """
            SELECT original_transaction_id, app_bundle_id FROM reconciliation_checks
            WHERE original_transaction_id > $1 ORDER BY original_transaction_id LIMIT $2
            """
        let after: String
        let limit: Int32

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(after)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (String, String) { try row.decode((String, String).self) }
    }

    /// Every counter row of one app, as a rebuild's snapshot holds it.
    struct AppCounters: PostgresPreparedStatement {
        static let sql = """
            SELECT environment, dimension, day, metric, segment, currency, value FROM analytics_counters WHERE app_bundle_id = $1
            """
        let app: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(app)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> AnalyticsStoredRow {
            let (environment, dimension, day, metric, segment, currency, value) = try row.decode((String, Int32, Int32, Int32, String, String, Int64).self)
            guard let dimension = AnalyticsDimension(rawValue: Int(dimension)) else {
                throw StorageError.corruptRow(table: "analytics_counters", key: "\(app)/\(day)/\(metric)", reason: "dimension \(dimension)")
            }
            return AnalyticsStoredRow(
                environment: AppStoreEnvironment(rawValue: environment), dimension: dimension, segment: segment,
                metric: AnalyticsMetric(rawValue: Int(metric)), currency: currency, day: Int(day), value: value)
        }
    }

    /// Adds a rebuild's corrections to one app's counters (distinct keys).
    struct Add: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO analytics_counters (app_bundle_id, environment, dimension, day, metric, segment, currency, value)
            SELECT $1, * FROM unnest($2::text[], $3::int4[], $4::int4[], $5::int4[], $6::text[], $7::text[], $8::int8[])
            ON CONFLICT (app_bundle_id, environment, dimension, day, metric, segment, currency)
            DO UPDATE SET value = analytics_counters.value + excluded.value
            """
        let app: String
        let rows: ArraySlice<AnalyticsStoredRow>

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresAnalyticsStatements.counterKeys(of: app, rows, capacity: 8)
            bindings.append(rows.map(\.value))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// Drops those of one app's counters of a rebuild's correction that are zero (distinct keys).
    struct DeleteZeros: PostgresPreparedStatement {
        static let sql = """
            DELETE FROM analytics_counters AS counters
            USING unnest($2::text[], $3::int4[], $4::int4[], $5::int4[], $6::text[], $7::text[])
                AS zero (environment, dimension, day, metric, segment, currency)
            WHERE counters.app_bundle_id = $1 AND counters.environment = zero.environment AND counters.dimension = zero.dimension
                AND counters.day = zero.day AND counters.metric = zero.metric AND counters.segment = zero.segment
                AND counters.currency = zero.currency AND counters.value = 0
            """
        let app: String
        let rows: ArraySlice<AnalyticsStoredRow>

        func makeBindings() throws -> PostgresBindings {
            PostgresAnalyticsStatements.counterKeys(of: app, rows, capacity: 7)
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// The bindings `$1`–`$7` of a statement over counters of one app: the app, then each key
    /// column of `rows` as an array, as `unnest` takes them.
    private static func counterKeys(of app: String, _ rows: ArraySlice<AnalyticsStoredRow>, capacity: Int) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: capacity)
        bindings.append(app)
        bindings.append(rows.map(\.environment.rawValue))
        bindings.append(rows.map { Int32($0.dimension.rawValue) })
        bindings.append(rows.map { Int32($0.day) })
        bindings.append(rows.map { Int32($0.metric.rawValue) })
        bindings.append(rows.map(\.segment))
        bindings.append(rows.map(\.currency))
        return bindings
    }
}
