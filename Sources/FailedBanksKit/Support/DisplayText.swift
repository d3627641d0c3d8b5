import FetchedResultsUI

/// failedbanks shows stored values as every app of the package does (``FetchedResultsUI/DisplayText``).
typealias DisplayText = FetchedResultsUI.DisplayText
