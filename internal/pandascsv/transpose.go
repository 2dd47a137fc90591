package pandascsv

import "fmt"

// Transposed returns df.iloc[:, cols].transpose().values.tolist(): one vector per selected
// column, each cell with the Python type pandas gives it there. When the selected columns
// share a dtype their cells keep it; int64, uint64 and float64 columns mixed are all
// float64 (ints become floats); any other mix is object, where every cell keeps its own
// column's type (an int stays an int next to a str). A nil cols selects every column.
// An index out of range is an error, as iloc's IndexError; negative ones count from the
// end.
func (f *Frame) Transposed(cols []int) ([][]Value, error) {
	if cols == nil {
		cols = make([]int, len(f.Columns))
		for i := range cols {
			cols[i] = i
		}
	}
	sel := make([]*Column, len(cols))
	for i, c := range cols {
		if c < 0 {
			c += len(f.Columns)
		}
		if c < 0 || c >= len(f.Columns) {
			return nil, fmt.Errorf("positional indexers are out-of-bounds: column %d of %d", cols[i], len(f.Columns))
		}
		sel[i] = &f.Columns[c]
	}
	toFloat := false
	if len(sel) > 1 {
		same, numeric := true, true
		for _, c := range sel {
			same = same && c.DType == sel[0].DType
			numeric = numeric && (c.DType == Int64 || c.DType == Uint64 || c.DType == Float64)
		}
		toFloat = !same && numeric
	}
	out := make([][]Value, len(sel))
	for i, c := range sel {
		if !toFloat || c.DType == Float64 {
			out[i] = c.Values
			continue
		}
		v := make([]Value, len(c.Values))
		for j, x := range c.Values {
			v[j] = AsFloat(x)
		}
		out[i] = v
	}
	return out, nil
}

// AsFloat converts an int cell to the float Python's float() gives it.
func AsFloat(x Value) Value {
	switch x.Type {
	case Int:
		return Value{Type: Float, F: float64(x.I)}
	case Uint:
		return Value{Type: Float, F: float64(x.U)}
	}
	return x
}
