import CCurl

extension CurlTransfer {
    /// libcurl's failures in the words of ``UpdateError`` (`code` a `CURLcode`, `message` libcurl's text).
    static func translate(code: Int, message: String, url: String) -> UpdateError {
        switch UInt32(truncatingIfNeeded: code) {
        case CURLE_COULDNT_CONNECT.rawValue:
            return .cannotConnect(url: url, reason: "nothing is listening there (connection refused)")
        case CURLE_COULDNT_RESOLVE_HOST.rawValue:
            return .cannotConnect(url: url, reason: "no such host")
        case CURLE_GOT_NOTHING.rawValue, CURLE_RECV_ERROR.rawValue, CURLE_SEND_ERROR.rawValue:
            return .network(url: url, reason: "the connection was lost")
        case CURLE_SSL_CONNECT_ERROR.rawValue, CURLE_PEER_FAILED_VERIFICATION.rawValue,
            CURLE_SSL_CERTPROBLEM.rawValue, CURLE_SSL_CACERT_BADFILE.rawValue:
            return .network(url: url, reason: "the secure connection failed (\(message))")
        case CURLE_UNSUPPORTED_PROTOCOL.rawValue, CURLE_URL_MALFORMAT.rawValue:
            return .badURL(url)
        default:
            return .network(url: url, reason: "\(message) (curl error \(code))")
        }
    }
}
