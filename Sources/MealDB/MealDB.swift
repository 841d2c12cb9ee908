// Placeholder: replaced as the MealDB module is built.
