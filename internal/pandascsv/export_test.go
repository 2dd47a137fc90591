package pandascsv

// IsNA reports whether read_csv reads s as NaN.
func IsNA(s string) bool { return isNA(s) }
