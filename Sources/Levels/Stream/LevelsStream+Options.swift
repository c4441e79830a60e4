extension LevelsStream.Source {
    /// Source options that do not go together.
    public enum Invalid: Error, Sendable, Equatable {
        /// A level file with an empty name.
        case emptyFileName
        /// A level file and a live source or server at once.
        case fileAndLiveSource
        /// Real-time pacing without a file to pace (live levels are real time).
        case realTimeWithoutFile
        /// A live source with an empty name.
        case emptySourceName
    }

    /// The source `tiltd levels`' options describe, checked: a file (paced
    /// in real time or not) or live levels (a source, a server), never both.
    ///
    /// - Throws: `Invalid` naming what does not go together.
    public init(levelsFile: String?, realTime: Bool, source: String?, server: String?) throws(Invalid) {
        if let levelsFile {
            if levelsFile.isEmpty { throw .emptyFileName }
            if source != nil || server != nil { throw .fileAndLiveSource }
            self = .file(path: levelsFile, realTime: realTime)
            return
        }
        if realTime { throw .realTimeWithoutFile }
        if let source, source.isEmpty { throw .emptySourceName }
        self = .live(source: source, server: server)
    }
}
