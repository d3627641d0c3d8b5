import Foundation

/// Where `failedbanks update` downloads the list from: `--url`, else
/// `$FAILEDBANKS_URL`, else the FDIC's CSV download.
///
///     BankListSource.url(option: nil, environment: [:])   // https://www.fdic.gov/bank-failures/download-data.csv
package enum BankListSource {
    /// The FDIC's Failed Bank List as CSV (linked as "Download CSV" from
    /// https://www.fdic.gov/bank-failures/failed-bank-list). The FDIC has moved it before.
    package static let fdicURL = "https://www.fdic.gov/bank-failures/download-data.csv"

    /// The address to use: the option, else the environment's `FAILEDBANKS_URL`, else ``fdicURL``.
    package static func url(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let variable = environment["FAILEDBANKS_URL"], !variable.isEmpty { return variable }
        return fdicURL
    }
}
