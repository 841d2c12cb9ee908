print("commissary")
