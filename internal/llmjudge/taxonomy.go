package llmjudge

// Category is one error category the judge may name.
type Category struct {
	ID   string `json:"id"`   // what the answer's "category" holds
	Name string `json:"name"` // NL2SQL-BUGs' main category it stands for
	Says string `json:"says"` // what it covers, shown to the judge
}

// CategoryNone is the category of a correct verdict.
const CategoryNone = "none"

// Taxonomy is the judge's error categories: the nine main categories of NL2SQL-BUGs'
// two-level taxonomy (Liu et al., 2025), in their order, and "none" for a prediction that
// answers the question. The descriptions are ours; the subcategories are left to the
// rationale, which keeps the answer short and the category a closed set.
var Taxonomy = []Category{
	{CategoryNone, "no error", "the prediction answers the question as the gold does, or better"},
	{"attribute", "Attribute-related", "a wrong, missing or extra column in what is selected or compared"},
	{"table", "Table-related", "a wrong, missing or extra table, or tables joined on the wrong keys"},
	{"value", "Value-related", "a wrong literal, or a value written in a format the data does not use"},
	{"operator", "Operator-related", "a wrong comparison, arithmetic or logical operator"},
	{"condition", "Condition-related", "a filter that is wrong, missing, extra, or applied at the wrong place"},
	{"function", "Function-related", "a wrong or missing aggregate, scalar, date or type-conversion function"},
	{"clause", "Clause-related", "a wrong or missing GROUP BY, ORDER BY, LIMIT, DISTINCT or HAVING"},
	{"subquery", "Subquery-related", "a wrong, missing or mis-correlated subquery, or a wrong set operation"},
	{"other", "Other", "an error none of the categories above names (it fails to run, answers another question)"},
}

// knownCategory reports whether id is one of Taxonomy's.
func knownCategory(id string) bool {
	for _, c := range Taxonomy {
		if c.ID == id {
			return true
		}
	}
	return false
}
