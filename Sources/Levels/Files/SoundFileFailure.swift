/// A failed `sf_open`: libsndfile's message, and whether the file was found
/// but is not a format it decodes.
struct SoundFileFailure: Error {
    var message: String
    var isFormat: Bool
}
