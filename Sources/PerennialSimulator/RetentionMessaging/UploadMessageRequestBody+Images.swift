import PerennialAppStore

extension UploadMessageRequestBody {
    /// Every uploaded image the message shows, its own and its bullet points' icons: what keeps an
    /// image from being deleted and what a switch-plan or offer message may not have.
    var imageIdentifiers: [String] {
        (image.map { [$0.imageIdentifier] } ?? []) + (bulletPoints ?? []).map(\.imageIdentifier)
    }
}
