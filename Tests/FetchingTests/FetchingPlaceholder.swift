// Placeholder: replaced as the Fetching tests are written.
