import Motion
import SamplePath
import Wording

extension OutputPathError: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .noFileName(let role, let example): "\(role.setting) needs a file name, such as \(example)"
        case .isADirectory(let role, let path, let suggestion):
            "\(role.setting) \(path) is a directory: give a file name such as \(suggestion)"
        case .cannotWrite(let role, let path, let reason):
            "\(role.setting) \(path) cannot be written (\(reason)); choose another \(role.setting)"
        case .noDirectoryName(let role, let purpose): "\(role.setting) needs a directory for \(purpose)"
        case .notADirectory(let role, let path, let purpose):
            "\(role.setting) \(path) is a file, not a directory: give a directory for \(purpose)"
        case .cannotCreateFiles(let role, let path, let folder, let reason):
            "\(role.setting) \(path): cannot create files " + (folder.map { "in \($0)" } ?? "there")
                + " (\(reason)); choose another \(role.setting) or fix its permissions"
        case .cannotMakeDirectory(let role, let path, let reason):
            "cannot create the directory \(role.setting) \(path): \(reason); choose another \(role.setting)"
        case .noFolder(let role, let path, let folder):
            "\(role.setting) \(path): there is no folder \(folder); create it first (mkdir -p \(folder)) "
                + "or choose another \(role.setting)"
        case .folderNotADirectory(let role, let path, let folder):
            "\(role.setting) \(path): \(folder) is not a directory; choose another \(role.setting)"
        }
    }
}

extension OutputPath.Role {
    /// The option that names a path of this role.
    public var setting: Setting {
        switch self {
        case .output: .out
        case .recording: .record
        case .contactSheet: .contactSheet
        case .recordingDirectory: .recordDir
        case .socket: .listen
        }
    }
}
