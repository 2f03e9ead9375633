/// The home of everything Apple defines: wire models, verification, receipts and clients.
public enum PerennialAppStore {}
