import Testing

/// Issue 7 proved against the real server and the real simulator over HTTP: each nested suite
/// starts its own `LiveSystem`. Serialized because every test runs a server, a simulator and
/// URLSession traffic, and the machine is small.
@Suite(.serialized)
enum ClientLive {}
