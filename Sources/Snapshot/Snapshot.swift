// Placeholder: replaced as the Snapshot module is built.
