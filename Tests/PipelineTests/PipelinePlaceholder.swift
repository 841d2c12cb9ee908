// Placeholder: replaced as the Pipeline tests are written.
