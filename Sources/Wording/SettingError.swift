import Synchronization

/// A setting that cannot work, found before anything opens: one line
/// naming the setting and what to give instead (the command shows it as a
/// usage error, the setting named as its option).
public struct SettingError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: SettingMessage
    public var description: String { message.description }

    public init(_ message: SettingMessage) {
        self.message = message
    }
}

/// A setting a person gives tiltd, named by its field. Libraries name
/// settings only through this type; the command line decides how each is
/// spelt (`SettingMessage.install(names:)`).
public enum Setting: String, CaseIterable, Sendable {
    case allowHost, background, color, columns, contactSheet, contactSheetFrames, control, controlVolume, count,
         cutoff, dbus, device, dsu, duration, format, fps, gyroTimeConstant, height, holds, host, interactive, json,
         knobRadius, latency, levels, levelsFile, levelsSource, lightColor, listen, loop, maxConnections, maxFrames,
         maxStreams, maxStreamsPerClient, mode, mountMatrix, neutral, noGate, noGyro, onDemand, out, overwrite,
         pitch, port, rate, realtime, record, recordDir, recordKeep, recordLimit, recordMaxMib, replay, roll, scale,
         screenOrientation, server, shakeBand, size, slider, socketGroup, source, style, threshold, trackHeight, uri,
         value, width
}

extension Setting: CustomStringConvertible {
    /// The setting as the command line spells it (its field name until
    /// `SettingMessage.install(names:)`), so plain text can name it too.
    public var description: String { ("\(self)" as SettingMessage).description }
}

/// Text that names settings by type (`"\(Setting.count) \(n): …"`), so a
/// library's message never spells an option: it is rendered with the names
/// the command line installed, the same bytes wherever it is shown.
public struct SettingMessage: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public enum Part: Sendable, Equatable {
        case text(String)
        case setting(Setting)
    }

    /// Text and settings in order, adjacent texts merged.
    public private(set) var parts: [Part] = []

    public init(stringLiteral value: String) { append(.text(value)) }

    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.message.parts }

    public struct StringInterpolation: StringInterpolationProtocol {
        var message = SettingMessage(parts: [])
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { message.append(.text(literal)) }
        public mutating func appendInterpolation(_ setting: Setting) { message.append(.setting(setting)) }
        public mutating func appendInterpolation(_ other: SettingMessage) { other.parts.forEach { message.append($0) } }
        public mutating func appendInterpolation(_ value: some Any) { message.append(.text(String(describing: value))) }
    }

    private init(parts: [Part]) { self.parts = parts }

    private mutating func append(_ part: Part) {
        if case .text(let more) = part, case .text(let last)? = parts.last {
            parts[parts.count - 1] = .text(last + more)
        } else if part != .text("") {
            parts.append(part)
        }
    }

    public static func + (lhs: SettingMessage, rhs: SettingMessage) -> SettingMessage {
        var joined = lhs
        rhs.parts.forEach { joined.append($0) }
        return joined
    }

    /// `settings` joined by ", ", then " is" for one or " are" for more.
    public static func list(_ settings: [Setting]) -> SettingMessage {
        var message = SettingMessage(parts: [])
        for (index, setting) in settings.enumerated() {
            if index > 0 { message.append(.text(", ")) }
            message.append(.setting(setting))
        }
        return message + (settings.count == 1 ? " is" : " are")
    }

    /// The text with each setting spelt by `name`.
    public func text(naming name: (Setting) -> String) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .setting(let setting): name(setting)
            }
        }.joined()
    }

    /// The text with each setting spelt as installed (its field name until then).
    public var description: String {
        let name: @Sendable (Setting) -> String = Self.names.withLock { $0 }
        return text(naming: name)
    }

    private static let names = Mutex<@Sendable (Setting) -> String>({ $0.rawValue })

    /// Spells every setting as `names` does from now on: the command line
    /// installs its option names once, first thing in `main`.
    public static func install(names: @escaping @Sendable (Setting) -> String) {
        Self.names.withLock { $0 = names }
    }
}
