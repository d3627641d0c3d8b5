// CLIKit
