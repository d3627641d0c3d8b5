import Foundation
import TestSupport

@testable import SQLiteStore
