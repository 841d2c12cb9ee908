// Placeholder: replaced as the MealDB tests are written.
