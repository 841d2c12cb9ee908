// Placeholder: replaced as the DiningSources tests are written.
