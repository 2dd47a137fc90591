package metrics

import "github.com/nl2sqlbench/nl2sqlbench/internal/record"

// Section is summary.json's "metrics" section: the registry's metrics that this run's
// records carry, and every system's value of each, overall and per difficulty. Outputs
// print it; they never average records themselves.
type Section struct {
	Definitions []Definition   `json:"definitions"`
	Systems     []SystemValues `json:"systems"`
}

// SystemValues is one system's values, in the order of Definitions.
type SystemValues struct {
	System string  `json:"system"`
	Values []Value `json:"values"`
}

// Aggregate computes the metrics section: a metric is part of the run when some system
// can carry it and some judged record has a value for it.
func Aggregate(ms []Metric, systems []SystemRecords) *Section {
	sec := &Section{Definitions: []Definition{}}
	for i := range systems {
		sec.Systems = append(sec.Systems, SystemValues{System: systems[i].Name, Values: []Value{}})
	}
	groups := make([][]DifficultyGroup, len(systems)) // split once per system, not per metric
	var bs bootstrapBatch                             // every mean's bootstrap, drawn together once the section is built
	for si := range systems {
		groups[si] = systems[si].ByDifficulty()
	}
	for mi := range ms {
		m := &ms[mi]
		if !present(m, systems) {
			continue
		}
		sec.Definitions = append(sec.Definitions, m.Definition())
		for si, s := range systems {
			reason := ""
			if m.Usable != nil {
				if ok, why := m.Usable(s.Records); !ok {
					reason = why
				}
			}
			vi := len(sec.Systems[si].Values)
			v, xs := aggregate(m, s.Name, s.Records, reason)
			v.ID = m.ID
			bs.add(m, si, vi, -1, xs)
			for di, g := range groups[si] {
				d, dxs := aggregate(m, s.Name, g.Records, reason)
				d.Name = g.Name
				v.ByDifficulty = append(v.ByDifficulty, d)
				bs.add(m, si, vi, di, dxs)
			}
			sec.Systems[si].Values = append(sec.Systems[si].Values, v)
		}
	}
	bs.run(sec)
	return sec
}

func present(m *Metric, systems []SystemRecords) bool {
	for _, s := range systems {
		if m.Usable != nil {
			if ok, _ := m.Usable(s.Records); !ok {
				continue
			}
		}
		for i := range s.Records {
			r := &s.Records[i]
			if !r.Judged() {
				continue
			}
			if _, ok := m.Value(s.Name, r); ok {
				return true
			}
		}
	}
	return false
}

// aggregate is the one place a metric's per-question values are averaged. It returns
// the value and, when the value is applicable and its interval still to be bootstrapped,
// the per-question values it averaged (nil otherwise).
func aggregate(m *Metric, system string, recs []record.Record, reason string) (Value, []float64) {
	return aggregateAt(m, system, recs, nil, reason)
}

// aggregateAt is aggregate over the records at positions at (nil: all of them).
func aggregateAt(m *Metric, system string, recs []record.Record, at []int, reason string) (Value, []float64) {
	var sum float64
	var out Value
	n := len(recs)
	if at != nil {
		n = len(at)
	}
	xs := make([]float64, 0, n) // the per-question values averaged, for the interval
	for k := range n {
		i := k
		if at != nil {
			i = at[k]
		}
		r := &recs[i]
		judged := r.Judged()
		if judged {
			out.Judged++
		}
		if !judged && m.Over != AllRecords {
			continue
		}
		v, ok := m.Value(system, r)
		if ok {
			sum += v
			out.N++
		}
		switch {
		case ok:
			xs = append(xs, v)
		case m.Over == AllJudged || m.Over == AllRecords:
			xs = append(xs, 0) // counted in the denominator as 0, so in the interval too
		}
	}
	out.Denominator = out.Judged
	switch m.Over {
	case JudgedWithValue:
		out.Denominator = out.N
	case AllRecords:
		out.Denominator = n
	}
	if out.Denominator > 0 && m.Over == AllRecords {
		out.Coverage = 1 // every record counts, a missing value as 0
	} else if out.Judged > 0 {
		out.Coverage = float64(out.N) / float64(out.Judged)
	}
	if out.N > 0 && out.Denominator > 0 {
		v := sum / float64(out.Denominator)
		out.Value = &v
	}
	out.Applicable = reason == "" && out.Value != nil && out.Coverage >= m.MinCoverage
	if out.Applicable {
		out.Text = m.Unit.Format(*out.Value)
		if setInterval(m, &out, xs) {
			return out, xs
		}
	} else {
		out.Text = naText(out.N, out.Judged, reason)
	}
	return out, nil
}

// Lookup finds a metric's definition and a system's value of it; ok is false when the
// run does not carry the metric or the system is unknown.
func (s *Section) Lookup(system, id string) (Definition, *Value, bool) {
	if s == nil {
		return Definition{}, nil, false
	}
	di := s.index(id)
	if di < 0 {
		return Definition{}, nil, false
	}
	for i := range s.Systems {
		if s.Systems[i].System == system && di < len(s.Systems[i].Values) {
			return s.Definitions[di], &s.Systems[i].Values[di], true
		}
	}
	return Definition{}, nil, false
}

// Has reports whether the run carries metric id.
func (s *Section) Has(id string) bool { return s != nil && s.index(id) >= 0 }

// Group returns the definitions of one group ("headline", "schema", ...), in order.
func (s *Section) Group(g string) []Definition {
	if s == nil {
		return nil
	}
	var out []Definition
	for _, d := range s.Definitions {
		if d.Group == g {
			out = append(out, d)
		}
	}
	return out
}

func (s *Section) index(id string) int {
	for i, d := range s.Definitions {
		if d.ID == id {
			return i
		}
	}
	return -1
}

// In returns the value for one difficulty ("all" for the overall value); nil when the
// slice has no such difficulty.
func (v *Value) In(difficulty string) *Value {
	if v == nil {
		return nil
	}
	if difficulty == "all" {
		return v
	}
	for i := range v.ByDifficulty {
		if v.ByDifficulty[i].Name == difficulty {
			return &v.ByDifficulty[i]
		}
	}
	return nil
}
