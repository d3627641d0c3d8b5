import PostgreSQLClient
import Testing

struct ConnectionStringTests {
    @Test func aURIPasswordIsDetectedAndRemoved() {
        let uri = "postgres://alice:s%40cret@db.example:5433/shop?sslmode=require"
        #expect(ConnectionString.containsPassword(uri))
        #expect(ConnectionString.removingPassword(from: uri) == "postgres://alice@db.example:5433/shop?sslmode=require")
    }

    @Test func aPasswordParameterIsDetectedAndRemoved() {
        let uri = "postgresql://alice@db.example/shop?password=topsecret&sslmode=require"
        #expect(ConnectionString.containsPassword(uri))
        #expect(ConnectionString.removingPassword(from: uri) == "postgresql://alice@db.example/shop?sslmode=require")
        let last = "postgresql://alice@db.example/shop?sslmode=require&password=topsecret"
        #expect(ConnectionString.removingPassword(from: last) == "postgresql://alice@db.example/shop?sslmode=require")
    }

    @Test func aKeyValuePasswordIsDetectedAndRemoved() {
        let pairs = "host=db.example user=alice password='two words' dbname=shop"
        #expect(ConnectionString.containsPassword(pairs))
        #expect(ConnectionString.removingPassword(from: pairs) == "host=db.example user=alice dbname=shop")
    }

    @Test func aURIWithoutPasswordHasNone() {
        #expect(!ConnectionString.containsPassword("postgres://alice@db.example/shop"))
        #expect(!ConnectionString.containsPassword("postgres:///shop"))
        #expect(!ConnectionString.containsPassword(""))
    }

    @Test func aMessageLosesEveryFormOfThePassword() {
        let uri = "postgres://alice:p%40ss@db.example/shop"
        let message = "could not connect with p@ss to postgres://alice:p%40ss@db.example/shop"
        let cleaned = ConnectionString.removingPasswords(from: message, connectionString: uri)
        #expect(cleaned == "could not connect with *** to postgres://alice@db.example/shop")
    }
}
