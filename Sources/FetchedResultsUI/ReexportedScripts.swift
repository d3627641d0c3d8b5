// An app that shows a list screen also prints its `list` and `watch` output: one import gives both.
@_exported import FetchedResultsScripts
