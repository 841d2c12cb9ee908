/// The version recorded in `_meta`, manifests, the user agent and `--version`.
public enum CommissaryVersion {
    public static let current = "0.1.0"
}
