import PostgreSQLClient
import SQLiteStore

extension QuerySource {
    /// The launch's `--param` values a `:` line query is given: those of the parameters it names,
    /// bound as `--query`'s are (never spliced into it); the others left out, since the line's
    /// queries are many and the launch's values one set. A parameter it names that has no value is
    /// refused, naming the option that would give one.
    ///
    ///     try QuerySource.lineParameters(["least": "2", "city": "Oslo"], named: ["least"])   // ["least": "2"]
    ///     try QuerySource.lineParameters([:], named: ["least"])
    ///     // QueryRefusal: no value for the parameter :least (launch with --param least=VALUE)
    ///
    /// - Parameters:
    ///   - launch: `--param`'s values, by name without the sign.
    ///   - names: the query's parameters, by name without the sign, in order.
    /// - Throws: ``QueryRefusal`` (``QueryRefusal/Reason/parameters``) for the first name without a value.
    static func lineParameters(
        _ launch: [String: String],
        named names: [String]
    ) throws(QueryRefusal) -> [String: String] {
        var given: [String: String] = [:]
        for name in names {
            guard let value = launch[name] else {
                throw QueryRefusal(
                    .parameters,
                    "no value for the parameter :\(name) (launch with --param \(name)=VALUE)"
                )
            }
            given[name] = value
        }
        return given
    }

    /// The `:` line's query `sql` over the SQLite file `file`, checked, given the launch's values of
    /// the parameters it names (``lineParameters(_:named:)``), its result's file made.
    ///
    /// - Throws: as ``prepare(sql:file:parameters:key:)``, and ``QueryRefusal`` for a parameter without a value.
    static func prepareForLine(sql: String, file: String, launch: [String: String]) throws -> QuerySource {
        let names = try Database.openForQueries(path: file).prepareReadOnlyQuery(sql).parameterNames
        return try prepare(sql: sql, file: file, parameters: lineParameters(launch, named: names))
    }

    /// The `:` line's query `sql` checked on `target`'s server as ``prepare(sql:server:parameters:key:statementTimeout:warn:)``,
    /// given the launch's values of the `:name` parameters it names (``lineParameters(_:named:)``).
    ///
    /// - Throws: as ``prepare(sql:server:parameters:key:statementTimeout:warn:)``, and ``QueryRefusal``
    ///   for a parameter without a value.
    static func prepareForLine(
        sql: String,
        server target: PostgresTarget,
        launch: [String: String],
        statementTimeout: Double?
    ) throws -> QuerySource {
        let names = QueryText(sql).parameterNames
        return try prepare(
            sql: sql,
            server: target,
            parameters: lineParameters(launch, named: names),
            statementTimeout: statementTimeout
        )
    }
}
