package metrics

import ()

func fp(x float64) *float64 { return &x }
