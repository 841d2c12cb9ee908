// Placeholder: replaced as the Snapshot tests are written.
