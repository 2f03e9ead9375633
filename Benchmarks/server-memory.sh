#!/usr/bin/env bash
# The memory of a real `perennial serve` (SQLite back end) at issue 16's scale: "server memory
# stays under 300 MB throughout" with 1,000,000 subscribers and 12 months of history each.
#
# What it does, from the package root:
#   1. builds `perennial` and `perennial-bench` in release;
#   2. generates the population of the analytics benchmark (`perennial-bench analytics`,
#      docs/benchmarks.md) with its counters rebuilt, kept as one SQLite file
#      (PERENNIAL_BENCH_KEEP_DATABASE), and binds each subscription to an app user
#      (`user-<original transaction id>`, one statement through sqlite3) so that subscriber reads
#      find records;
#   3. writes a configuration for that app (bundle id com.example.analytics, Production, the
#      benchmark's catalog and exchange rates, an admin key, a client key, a throwaway trusted
#      root) and starts `perennial serve` on a loopback port;
#   4. samples the server's VmRSS (/proc/PID/status) every 0.2 s and, per phase, its VmHWM (the
#      peak is reset at each phase's start through /proc/PID/clear_refs when the kernel allows it),
#      while it:
#        - starts (migrations, idle),
#        - answers the metrics API for 2026 by day (`GET /admin/v1/apps/bench/metrics`), overall
#          and by product, METRICS_REQUESTS times each, CONCURRENCY at once,
#        - serves the dashboard signed in (the 365-day overview, subscriber pages) and /metrics,
#        - keeps answering the metrics API while `perennial analytics rebuild` (another process,
#          measured with /usr/bin/time -v) recomputes every counter, and once more after it,
#        - answers SUBSCRIBER_READS `GET /v1/subscribers/{id}` of random subscribers;
#   5. prints one row per phase: its duration, the server's sampled VmRSS peak, its VmHWM, the
#      rebuild process's peak; then stops the server and removes what it wrote.
#
# Run (about 15 minutes at 1,000,000 on 2 cores, most of it generating; needs curl, sqlite3,
# openssl and /usr/bin/time, Linux only):
#
#   Benchmarks/server-memory.sh
#   PERENNIAL_BENCH_SUBSCRIBERS=200000 SCRATCH=.build-mem Benchmarks/server-memory.sh
#
# Environment (all optional):
#   PERENNIAL_BENCH_SUBSCRIBERS  subscribers to generate (default 1000000)
#   SCRATCH                      `swift build --scratch-path` (default: SwiftPM's .build)
#   DATABASE                     keep the generated database at this path; when the file already
#                                exists it is reused and the generation skipped
#   PORT                         the server's loopback port (default 18080)
#   METRICS_REQUESTS             metrics requests per variant (default 50)
#   CONCURRENCY                  requests in flight at once (default 4)
#   SUBSCRIBER_READS             subscriber reads (default 20000)
set -euo pipefail

SUBSCRIBERS=${PERENNIAL_BENCH_SUBSCRIBERS:-1000000}
PORT=${PORT:-18080}
METRICS_REQUESTS=${METRICS_REQUESTS:-50}
CONCURRENCY=${CONCURRENCY:-4}
SUBSCRIBER_READS=${SUBSCRIBER_READS:-20000}
BUNDLE_ID=com.example.analytics
APP=bench
ADMIN_KEY=sk_memory_$RANDOM$RANDOM
CLIENT_KEY=pk_memory
BASE=http://127.0.0.1:$PORT
YEAR="from=2026-01-01&through=2026-12-31&granularity=day"

for tool in curl sqlite3 openssl /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "server-memory.sh needs $tool" >&2; exit 1; }
done
[[ -r /proc/self/status ]] || { echo "server-memory.sh reads /proc/PID/status (Linux)" >&2; exit 1; }

[[ -n ${DATABASE:-} ]] && DATABASE=$(realpath -m "$DATABASE")
cd "$(dirname "$0")/.."
WORK=$(mktemp -d "${TMPDIR:-/tmp}/perennial-server-memory.XXXXXX")
DB=${DATABASE:-$WORK/bench.sqlite}
SERVER_PID=
SAMPLER_PID=
cleanup() {
    [[ -n $SAMPLER_PID ]] && kill "$SAMPLER_PID" 2>/dev/null || true
    if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

now() { echo "${EPOCHREALTIME/./}"; } # microseconds since the epoch, without a fork
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", (b - a) / 1e6 }'; }
status_kb() { # status_kb PID FIELD: a /proc/PID/status field in kB (0 once the process is gone)
    local key value rest
    while read -r key value rest; do
        [[ $key == "$2:" ]] && { echo "$value"; return; }
    done <"/proc/$1/status" 2>/dev/null
    echo 0
}

# 1. Build.
scratch=()
[[ -n ${SCRATCH:-} ]] && scratch=(--scratch-path "$SCRATCH")
echo "== building (release)"
swift build -c release "${scratch[@]}" --product perennial
swift build -c release "${scratch[@]}" --product perennial-bench
BIN=$(swift build -c release "${scratch[@]}" --show-bin-path)

# 2. The population, with its counters rebuilt, kept as one file.
if [[ -f $DB ]]; then
    echo "== reusing $DB (generation skipped)"
    GENERATION_SECONDS="(reused)"
else
    echo "== generating $SUBSCRIBERS subscribers into $DB (perennial-bench analytics)"
    started=$(now)
    env -u PERENNIAL_POSTGRES_URL PERENNIAL_BENCH_SUBSCRIBERS="$SUBSCRIBERS" PERENNIAL_BENCH_KEEP_DATABASE="$DB" \
        "$BIN/perennial-bench" analytics
    GENERATION_SECONDS=$(seconds_since "$started")
fi
echo "== binding each subscription to an app user"
started=$(now)
sqlite3 "$DB" <<SQL
PRAGMA journal_mode = WAL;
INSERT OR IGNORE INTO bindings (original_transaction_id, app_user_id, app_bundle_id, bound_at)
    SELECT original_transaction_id, 'user-' || original_transaction_id, app_bundle_id, 0 FROM reconciliation_checks;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
BINDING_SECONDS=$(seconds_since "$started")
TRANSACTIONS=$(sqlite3 "$DB" "SELECT count(*) FROM transactions")
DB_MB=$(( $(stat -c %s "$DB") / 1048576 ))

# 3. The configuration and the server.
cat >"$WORK/catalog.json" <<JSON
{
  "apps": [{ "bundleId": "$BUNDLE_ID" }],
  "subscriptionGroups": [
    { "id": "30000001", "products": [
      { "id": "pro.yearly", "level": 1, "duration": "P1Y" },
      { "id": "pro.monthly", "level": 1, "duration": "P1M" }
    ] }
  ]
}
JSON
# Production needs a trusted root; nothing is ever verified against this one.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=perennial-memory -days 2 \
    -keyout "$WORK/root-key.pem" -out "$WORK/root.pem" 2>/dev/null
cat >"$WORK/perennial.json" <<JSON
{
  "host": "127.0.0.1",
  "port": $PORT,
  "database": "sqlite:$DB",
  "adminKey": "$ADMIN_KEY",
  "logLevel": "notice",
  "apps": [{
    "id": "$APP",
    "bundleId": "$BUNDLE_ID",
    "appAppleId": 1234567890,
    "catalog": "catalog.json",
    "environments": ["Production"],
    "publicKeys": ["$CLIENT_KEY"],
    "trustedRoots": ["root.pem"],
    "analytics": { "reportingCurrency": "USD", "exchangeRates": { "EUR": 1.08, "GBP": 1.27, "JPY": 0.0067 } }
  }]
}
JSON

PHASES=$WORK/phases
SAMPLES=$WORK/samples
: >"$PHASES"
CAN_RESET_PEAK=no
PHASE_NAME=
PHASE_START=
REBUILD_KB=
begin() {
    PHASE_NAME=$1
    PHASE_START=$(now)
    REBUILD_KB=
    if [[ $CAN_RESET_PEAK == yes ]]; then echo 5 >"/proc/$SERVER_PID/clear_refs"; fi
    echo "-- $PHASE_NAME"
}
end() {
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server died during: $PHASE_NAME (log: $WORK/server.log)" >&2; tail -20 "$WORK/server.log" >&2; exit 1; }
    printf '%s\t%s\t%s\t%s\t%s\n' "$PHASE_START" "$(now)" "$(status_kb "$SERVER_PID" VmHWM)" "${REBUILD_KB:--}" "$PHASE_NAME" >>"$PHASES"
}
fetch_all() { # fetch_all LIST [curl options]: every URL of a curl config file, CONCURRENCY at once; all must answer 200
    local codes
    codes=$(curl -s --no-progress-meter --parallel --parallel-max "$CONCURRENCY" -K "$1" -w '%{http_code}\n' "${@:2}" | sort | uniq -c)
    if [[ $(echo "$codes" | awk '$2 != 200' | wc -l) -ne 0 ]]; then
        echo "unexpected answers (count, status): $codes" >&2
        exit 1
    fi
}
urls() { # urls COUNT PATH...: a curl config fetching each PATH COUNT times, the answers discarded
    local count=$1; shift
    for _ in $(seq "$count"); do
        for path in "$@"; do printf 'url = "%s%s"\noutput = "/dev/null"\n' "$BASE" "$path"; done
    done
}

echo "== perennial serve on $BASE"
begin "start: migrate, open, idle 5 s"
"$BIN/perennial" serve --config "$WORK/perennial.json" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
(
    while [[ -r /proc/$SERVER_PID/status ]]; do
        echo "$(now) $(status_kb "$SERVER_PID" VmRSS)"
        sleep 0.2
    done
) >"$SAMPLES" &
SAMPLER_PID=$!
for _ in $(seq 600); do
    curl -sf -o /dev/null "$BASE/health/ready" && break
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server did not start:" >&2; cat "$WORK/server.log" >&2; exit 1; }
    sleep 0.1
done
curl -sf -o /dev/null "$BASE/health/ready"
if echo 5 2>/dev/null >"/proc/$SERVER_PID/clear_refs"; then CAN_RESET_PEAK=yes; fi
sleep 5
end

ADMIN=(-H "Authorization: Bearer $ADMIN_KEY")
curl -sf "${ADMIN[@]}" "$BASE/admin/v1/apps/$APP/metrics?$YEAR" -o "$WORK/overview.json"
ACTIVE=$(grep -o '"activeSubscriptions":[0-9]*' "$WORK/overview.json" | cut -d: -f2 | sort -n | tail -1)
[[ ${ACTIVE:-0} -gt 0 ]] || { echo "the overview reports no active subscription: the configuration does not match the data" >&2; exit 1; }
echo "the overview of 2026 reports up to $ACTIVE active subscriptions a day ($(stat -c %s "$WORK/overview.json") bytes)"

begin "metrics API: 2026 by day, overall and by product, ${METRICS_REQUESTS} times each, $CONCURRENCY at once"
urls "$METRICS_REQUESTS" "/admin/v1/apps/$APP/metrics?$YEAR" "/admin/v1/apps/$APP/metrics?$YEAR&breakdown=product" >"$WORK/metrics.urls"
fetch_all "$WORK/metrics.urls" "${ADMIN[@]}"
end

begin "dashboard: 365-day overview, subscriber page, /metrics, 20 times each"
status=$(curl -s -c "$WORK/cookies" -o /dev/null -w '%{http_code}' --data-urlencode "key=$ADMIN_KEY" "$BASE/dashboard/sign-in")
[[ $status == 303 ]] || { echo "dashboard sign-in answered $status" >&2; exit 1; }
urls 20 "/dashboard?app=$APP&environment=Production&range=365d" >"$WORK/dashboard.urls"
awk -v base="$BASE" -v app="$APP" -v n="$SUBSCRIBERS" 'BEGIN { srand(1); for (i = 0; i < 20; i++)
    printf "url = \"%s/dashboard/apps/%s/subscribers/user-%010d\"\noutput = \"/dev/null\"\n", base, app, int(rand() * n) }' >>"$WORK/dashboard.urls"
urls 20 "/metrics" >>"$WORK/dashboard.urls"
fetch_all "$WORK/dashboard.urls" -b "$WORK/cookies"
end

begin "analytics rebuild (another process); the server answers the metrics API meanwhile"
/usr/bin/time -v "$BIN/perennial" analytics rebuild --config "$WORK/perennial.json" >"$WORK/rebuild.out" 2>"$WORK/rebuild.time" &
REBUILD_PID=$!
urls 1 "/admin/v1/apps/$APP/metrics?$YEAR&breakdown=product" >"$WORK/one.urls"
served=0
while kill -0 "$REBUILD_PID" 2>/dev/null; do
    fetch_all "$WORK/one.urls" "${ADMIN[@]}"
    served=$((served + 1))
    sleep 1
done
wait "$REBUILD_PID" || { echo "the rebuild failed:" >&2; cat "$WORK/rebuild.out" "$WORK/rebuild.time" >&2; exit 1; }
REBUILD_KB=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/rebuild.time")
end
echo "   $(cat "$WORK/rebuild.out"); $served metrics requests answered meanwhile"

begin "metrics API after the rebuild, ${METRICS_REQUESTS} times by product, $CONCURRENCY at once"
urls "$METRICS_REQUESTS" "/admin/v1/apps/$APP/metrics?$YEAR&breakdown=product" >"$WORK/metrics2.urls"
fetch_all "$WORK/metrics2.urls" "${ADMIN[@]}"
end

begin "subscriber reads: GET /v1/subscribers/{id} $SUBSCRIBER_READS times, random, $CONCURRENCY at once"
awk -v base="$BASE" -v count="$SUBSCRIBER_READS" -v n="$SUBSCRIBERS" 'BEGIN { srand(16); for (i = 0; i < count; i++)
    printf "url = \"%s/v1/subscribers/user-%010d\"\noutput = \"/dev/null\"\n", base, int(rand() * n) }' >"$WORK/reads.urls"
fetch_all "$WORK/reads.urls" -H "Authorization: Bearer $CLIENT_KEY"
end

begin "idle 5 s"
sleep 5
end
FINAL_RSS_KB=$(status_kb "$SERVER_PID" VmRSS)
WAL_MB=$(( $(stat -c %s "$DB-wal" 2>/dev/null || echo 0) / 1048576 ))

kill -TERM "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=
wait "$SAMPLER_PID" 2>/dev/null || true
SAMPLER_PID=

# 5. The table.
echo
echo "perennial serve (SQLite) with $SUBSCRIBERS subscribers, $TRANSACTIONS transactions; database ${DB_MB} MB (WAL ${WAL_MB} MB at the end)"
echo "generation + counters (perennial-bench): ${GENERATION_SECONDS} s; bindings: ${BINDING_SECONDS} s"
if [[ $CAN_RESET_PEAK == yes ]]; then
    echo "VmHWM: the server's peak during the phase (reset at its start through /proc/PID/clear_refs)"
else
    echo "VmHWM: the server's peak since it started, read at the phase's end (this kernel refuses clear_refs)"
fi
echo
awk -F'\t' -v samples="$SAMPLES" '
    BEGIN { while ((getline line < samples) > 0) { split(line, f, " "); t[++n] = f[1]; rss[n] = f[2] }; width = 5 }
    {
        peak = 0
        for (i = 1; i <= n; i++) if (t[i] >= $1 && t[i] <= $2 && rss[i] > peak) peak = rss[i]
        name[++m] = $5; secs[m] = ($2 - $1) / 1e6; sampled[m] = peak / 1024; hwm[m] = $3 / 1024
        rebuild[m] = $4 == "-" ? "" : sprintf("%d", $4 / 1024)
        if (length($5) > width) width = length($5)
        if ($3 > top) top = $3
    }
    END {
        printf "| %-*s | %7s | %18s | %12s | %18s |\n", width, "phase", "seconds", "server VmRSS peak", "server VmHWM", "rebuild process"
        printf "| %-*s | %7s | %18s | %12s | %18s |\n", width, "", "", "MB, sampled 0.2 s", "MB", "peak MB (time -v)"
        dashes = sprintf("%*s", width, ""); gsub(/ /, "-", dashes)
        printf "| %s | ------: | -----------------: | -----------: | -----------------: |\n", dashes
        for (i = 1; i <= m; i++) printf "| %-*s | %7.1f | %18d | %12d | %18s |\n", width, name[i], secs[i], sampled[i], hwm[i], rebuild[i]
        printf "\nserver peak over the run (VmHWM): %d MB\n", top / 1024
    }' "$PHASES"
echo "server VmRSS at the end: $((FINAL_RSS_KB / 1024)) MB"
