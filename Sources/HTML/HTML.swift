// Placeholder: replaced as the HTML module is built.
