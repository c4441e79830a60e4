extension Result {
    /// The success value, or the failure mapped to an error and thrown.
    func get<E: Error>(or map: (Failure) -> E) throws -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let failure): throw map(failure)
        }
    }
}
