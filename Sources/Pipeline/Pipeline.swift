// Placeholder: replaced as the Pipeline module is built.
