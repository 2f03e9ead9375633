import Foundation
import NIOCore

/// Why a file could not be read or a connection made, as a person says it (`No such file or
/// directory`, `Connection refused`): not Foundation's error with its domain, code and user
/// info, nor NIO's "connection reset (error set): Connection refused) (errno: 111)". Operators
/// read it in configuration errors, the CLI's messages and a webhook endpoint's last error.
public enum SystemErrorReason {
    public static func of(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        let posix = (error as? POSIXError) ?? ((error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError)
        return posix.map { String(cString: strerror($0.code.rawValue)) } ?? (error as NSError).localizedDescription
    }
}
