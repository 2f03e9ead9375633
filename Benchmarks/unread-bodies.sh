#!/usr/bin/env bash
# The memory of a real `perennial serve` under issue 32's second finding: requests whose body the
# server does not read (no key, answered 401) sent with `Connection: close`, from clients that
# close at once and from clients that never close. Before the fix, each held connection kept
# 250-400 KB for as long as the client kept it (for ever), and 6,000 of them took the server to
# 1.24 GB.
#
# What it does, from the package root:
#   1. builds `perennial` (release unless CONFIGURATION=debug);
#   2. starts `perennial serve --simulator --no-simulator-seed` on loopback ports;
#   3. runs ROUNDS rounds; each sends REQUESTS POSTs of 512 KB to /v1/subscribers/u/transactions
#      three ways: over keep-alive with the demo app's key, so that the body is read (the floor:
#      the traffic that never made the server grow), and without a key with `Connection: close`,
#      from clients that close at once and from clients that hold the connection open for
#      HOLD_SECONDS;
#   4. prints one row per round and way: the server's VmRSS before and after, its open file
#      descriptors after, and how many requests got no answer.
# Memory is flat when the rows after the first round stay where the first left them, and the
# descriptors return to the idle count: no connection outlives the linger time
# (docs/configuration.md, "Limits").
#
# Run (about a minute after the build; needs python3, Linux only):
#   Benchmarks/unread-bodies.sh
#   REQUESTS=6000 ROUNDS=5 Benchmarks/unread-bodies.sh
set -euo pipefail

REQUESTS=${REQUESTS:-1000}
ROUNDS=${ROUNDS:-3}
HOLD_SECONDS=${HOLD_SECONDS:-4}
PORT=${PORT:-18181}
SIMULATOR_PORT=${SIMULATOR_PORT:-18191}
CONFIGURATION=${CONFIGURATION:-release}
[[ -r /proc/self/status ]] || { echo "unread-bodies.sh reads /proc/PID/status (Linux)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "unread-bodies.sh needs python3" >&2; exit 1; }

swift build -c "$CONFIGURATION" --product perennial >&2
binary="$(swift build -c "$CONFIGURATION" --show-bin-path)/perennial"
work="$(mktemp -d)"
"$binary" serve --simulator --no-simulator-seed --port "$PORT" --simulator-port "$SIMULATOR_PORT" \
    --simulator-pki "$work/pki" --database "sqlite:$work/p.sqlite" >"$work/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$PORT/health/live" >/dev/null 2>&1 && break
    sleep 0.2
done

python3 - "$PORT" "$server" "$REQUESTS" "$ROUNDS" "$HOLD_SECONDS" <<'EOF'
import os, socket, sys, time

port, pid, requests, rounds, hold = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
body = b"x" * (512 * 1024)

def head(close):
    # The floor's requests carry the demo app's key, so the route reads the body (and refuses it,
    # 400: it is no JSON); the others carry none and are answered 401 before it is read.
    return (b"POST /v1/subscribers/u/transactions HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            + (b"Connection: close\r\n" if close else b"Authorization: Bearer pk_demo\r\n")
            + b"Content-Length: %d\r\n\r\n" % len(body))

def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    return 0

def descriptors():
    return len(os.listdir(f"/proc/{pid}/fd"))

def answered(sock):
    sock.settimeout(10)
    try:
        return sock.recv(12).startswith(b"HTTP/1.1 ")
    except OSError:
        return False

def keep_alive():
    """The floor: one connection, every body sent whole and every answer read."""
    sock, missing = socket.create_connection(("127.0.0.1", port)), 0
    request = head(False) + body
    for _ in range(requests):
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        headers, _, rest = data.partition(b"\r\n\r\n")
        length = next((int(line.split(b":")[1]) for line in headers.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
        while len(rest) < length:
            rest += sock.recv(65536)
        if not data.startswith(b"HTTP/1.1 "):
            missing += 1
            sock.close()
            sock = socket.create_connection(("127.0.0.1", port))
    sock.close()
    return missing

def closing(held):
    """Connection: close, the body written without waiting; the client closes at once or holds."""
    open_sockets, missing = [], 0
    request = head(True) + body
    for _ in range(requests):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setblocking(False)
        try:
            sock.send(request)
        except BlockingIOError:
            pass
        if held:
            open_sockets.append(sock)
        else:
            sock.setblocking(True)
            missing += 0 if answered(sock) else 1
            sock.close()
    if held:
        time.sleep(hold)
        for sock in open_sockets:
            sock.setblocking(True)
            missing += 0 if answered(sock) else 1
            sock.close()
    return missing

ways = [("keep-alive, body read (floor)", keep_alive), ("close, client closes", lambda: closing(False)),
        ("close, client holds", lambda: closing(True))]
idle = descriptors()
print(f"{requests} requests of 512 KB per row; server idle at {rss()} MB RSS, {idle} descriptors", flush=True)
print(f"| round | traffic | RSS before MB | RSS after MB | descriptors after | no answer |")
print(f"| ---: | --- | ---: | ---: | ---: | ---: |", flush=True)
for round in range(1, rounds + 1):
    for name, send in ways:
        before = rss()
        missing = send()
        time.sleep(1)
        print(f"| {round} | {name} | {before} | {rss()} | {descriptors()} | {missing} |", flush=True)
EOF
