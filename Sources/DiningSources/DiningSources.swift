// Placeholder: replaced as the DiningSources module is built.
