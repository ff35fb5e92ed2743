// TIP-35 snapshot files, read and written as bytes (into a ledger: ledger/snapshot/). A new field: CONTRIBUTING.md.
