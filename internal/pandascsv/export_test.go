package pandascsv

// String is the dtype's name as pandas prints it (the reference cases compare them).
func (d DType) String() string {
	return [...]string{"object", "int64", "uint64", "float64", "bool"}[d]
}
