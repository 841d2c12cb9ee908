// Placeholder: replaced as the HTML tests are written.
