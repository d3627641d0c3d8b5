import CSodium

/// Argon2id cost limits for deriving the vault key from the master passphrase.
///
/// The limits chosen when a store is created are saved beside the salt, so a
/// store keeps opening with the limits it was made with. A new passphrase
/// takes libsodium's *moderate* limits (`standard`: 256 MiB, 3 passes, about
/// a second: a stash file faces offline attack); `mystash passwd` never
/// lowers a stash's limits, and unlocking warns about a stash below the
/// *interactive* level (64 MiB, 2 passes) and offers to raise it. Tests take
/// the *minimum* limits to stay fast: in-process they pass `.minimum`, and a
/// debug build of the executable honours `MYSTASH_KDF=min` (a release build
/// ignores it).
///
///     let fast = KDFParameters.minimum
///     let normal = KDFParameters.standard
///     let chosen = KDFParameters.forNewPassphrase(environment: [:])   // .standard
package struct KDFParameters: Hashable, Sendable, CustomStringConvertible {
    /// Number of passes (`crypto_pwhash` opslimit).
    package var opsLimit: UInt64
    /// Memory in bytes (`crypto_pwhash` memlimit).
    package var memLimit: UInt64
    /// libsodium algorithm identifier; only Argon2id (`crypto_pwhash_ALG_ARGON2ID13`) is accepted.
    package var algorithm: Int32

    package init(opsLimit: UInt64, memLimit: UInt64, algorithm: Int32 = KDFParameters.argon2id) {
        self.opsLimit = opsLimit
        self.memLimit = memLimit
        self.algorithm = algorithm
    }

    /// libsodium's identifier for Argon2id v1.3.
    package static let argon2id: Int32 = crypto_pwhash_alg_argon2id13()

    /// `crypto_pwhash_OPSLIMIT_INTERACTIVE` / `MEMLIMIT_INTERACTIVE`: for people.
    package static var interactive: KDFParameters {
        KDFParameters(
            opsLimit: UInt64(crypto_pwhash_opslimit_interactive()),
            memLimit: UInt64(crypto_pwhash_memlimit_interactive())
        )
    }

    /// `crypto_pwhash_OPSLIMIT_MODERATE` / `MEMLIMIT_MODERATE`: 256 MiB, 3 passes.
    package static var moderate: KDFParameters {
        KDFParameters(
            opsLimit: UInt64(crypto_pwhash_opslimit_moderate()),
            memLimit: UInt64(crypto_pwhash_memlimit_moderate())
        )
    }

    /// What a new passphrase gets: `moderate`.
    package static var standard: KDFParameters { .moderate }

    /// The least a release build ever derives a new key with (OWASP's Argon2id
    /// minimum: 19 MiB, 2 passes), whatever it is asked: `Vault.create` raises
    /// lower limits to it there (a debug build, the tests', does not).
    package static let floor = KDFParameters(opsLimit: 2, memLimit: 19 << 20)

    /// `crypto_pwhash_OPSLIMIT_MIN` / `MEMLIMIT_MIN`: for tests only.
    package static var minimum: KDFParameters {
        KDFParameters(
            opsLimit: UInt64(crypto_pwhash_opslimit_min()),
            memLimit: UInt64(crypto_pwhash_memlimit_min())
        )
    }

    /// The limits for a new passphrase: `standard`. A debug build (the tests'
    /// executable) takes `minimum` when `MYSTASH_KDF` is `min`; a release build
    /// has no such switch, so a leftover `export` cannot weaken a stash.
    package static func forNewPassphrase(environment: [String: String]) -> KDFParameters {
        isTestCostRequested(environment) ? .minimum : .standard
    }

    /// Whether a debug build was asked for the tests' minimum cost (`MYSTASH_KDF=min`); always false in release.
    static func isTestCostRequested(_ environment: [String: String]) -> Bool {
        #if DEBUG
        return environment["MYSTASH_KDF"] == "min"
        #else
        return false
        #endif
    }

    /// Each limit the larger of this one's and `other`'s: what `mystash passwd`
    /// derives with, so that changing the passphrase never lowers the cost.
    package func raised(toAtLeast other: KDFParameters) -> KDFParameters {
        KDFParameters(
            opsLimit: max(opsLimit, other.opsLimit),
            memLimit: max(memLimit, other.memLimit),
            algorithm: algorithm
        )
    }

    /// Whether either limit is below `other`'s (a stash weaker than `interactive` is offered an upgrade).
    package func isBelow(_ other: KDFParameters) -> Bool {
        opsLimit < other.opsLimit || memLimit < other.memLimit
    }

    /// Throws unless the limits are Argon2id's and within bounds this program
    /// is willing to spend (at most 1 GiB and 16 passes), so a damaged or
    /// hostile store cannot make unlocking exhaust the machine.
    package func validate() throws {
        guard algorithm == KDFParameters.argon2id else {
            throw VaultError.unsupportedParameters("algorithm \(algorithm) is not Argon2id")
        }
        let minimum = KDFParameters.minimum
        guard opsLimit >= minimum.opsLimit, opsLimit <= 16 else {
            throw VaultError.unsupportedParameters("opslimit \(opsLimit)")
        }
        guard memLimit >= minimum.memLimit, memLimit <= 1 << 30 else {
            throw VaultError.unsupportedParameters("memlimit \(memLimit)")
        }
    }

    package var description: String { "Argon2id(ops: \(opsLimit), mem: \(memLimit / 1024) KiB)" }
}
