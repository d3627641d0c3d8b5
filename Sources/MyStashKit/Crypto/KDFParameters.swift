import CSodium

/// Argon2id cost limits for deriving the vault key from the master passphrase.
///
/// The limits chosen when a store is created are saved beside the salt, so a
/// store keeps opening with the limits it was made with. Normal use takes
/// libsodium's *interactive* limits (about 64 MiB, a fraction of a second);
/// tests take the *minimum* limits to stay fast (`MYSTASH_KDF=min`).
///
///     let fast = KDFParameters.minimum
///     let normal = KDFParameters.interactive
///     let chosen = KDFParameters.fromEnvironment()   // honours MYSTASH_KDF
public struct KDFParameters: Hashable, Sendable, CustomStringConvertible {
    /// Number of passes (`crypto_pwhash` opslimit).
    public var opsLimit: UInt64
    /// Memory in bytes (`crypto_pwhash` memlimit).
    public var memLimit: UInt64
    /// libsodium algorithm identifier; only Argon2id (`crypto_pwhash_ALG_ARGON2ID13`) is accepted.
    public var algorithm: Int32

    public init(opsLimit: UInt64, memLimit: UInt64, algorithm: Int32 = KDFParameters.argon2id) {
        self.opsLimit = opsLimit
        self.memLimit = memLimit
        self.algorithm = algorithm
    }

    /// libsodium's identifier for Argon2id v1.3.
    public static let argon2id: Int32 = crypto_pwhash_alg_argon2id13()

    /// `crypto_pwhash_OPSLIMIT_INTERACTIVE` / `MEMLIMIT_INTERACTIVE`: for people.
    public static var interactive: KDFParameters {
        KDFParameters(
            opsLimit: UInt64(crypto_pwhash_opslimit_interactive()),
            memLimit: UInt64(crypto_pwhash_memlimit_interactive())
        )
    }

    /// `crypto_pwhash_OPSLIMIT_MIN` / `MEMLIMIT_MIN`: for tests only.
    public static var minimum: KDFParameters {
        KDFParameters(
            opsLimit: UInt64(crypto_pwhash_opslimit_min()),
            memLimit: UInt64(crypto_pwhash_memlimit_min())
        )
    }

    /// `minimum` when the environment variable `MYSTASH_KDF` is `min` (tests), else `interactive`.
    public static func fromEnvironment(_ environment: [String: String]) -> KDFParameters {
        environment["MYSTASH_KDF"] == "min" ? .minimum : .interactive
    }

    /// Throws unless the limits are Argon2id's and within bounds this program
    /// is willing to spend (at most 1 GiB and 16 passes), so a damaged or
    /// hostile store cannot make unlocking exhaust the machine.
    public func validate() throws {
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

    public var description: String { "Argon2id(ops: \(opsLimit), mem: \(memLimit / 1024) KiB)" }
}
