import ArgumentParser

/// Runs a library's check inside `validate()`: its one-line error becomes a
/// `ValidationError`, shown like ArgumentParser's own (with the usage, exit 64).
@discardableResult
public func validating<T>(_ check: () throws -> T) throws -> T {
    do { return try check() } catch let error as ValidationError { throw error } catch {
        throw ValidationError("\(error)")
    }
}
