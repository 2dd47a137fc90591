package sqlast

import (
	"reflect"

	"github.com/sqlc-dev/meyer/ast"
)

// MaxDepth is the deepest syntax tree Parse accepts: the parser's own recursion limit.
// The parser builds a chain of binary operators ("1+1+...", "a AND b AND ...") in a
// loop, so a 16 MiB prediction can be a tree millions of levels deep; every walker
// here (and ETM's) recurses, and running out of goroutine stack is a fatal error, not
// a panic. SQLite refuses such a query too (its expression depth limit is 1000).
const MaxDepth = 10000

// treeDepth is the depth of n's tree, measured without recursion; it stops counting
// past limit. Parse only calls it on texts longer than limit bytes: a shorter one has
// fewer tokens than that, each adding a few levels at most, which no walker's stack notices.
func treeDepth(n ast.Node, limit int) int {
	type item struct {
		n ast.Node
		d int
	}
	deepest := 0
	stack := []item{{n, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if isNilNode(it.n) {
			continue
		}
		if it.d > deepest {
			deepest = it.d
			if deepest > limit {
				return deepest
			}
		}
		for _, c := range it.n.Children() {
			stack = append(stack, item{c, it.d + 1})
		}
	}
	return deepest
}

// isNilNode: Children lists optional fields, so a typed nil pointer is common.
func isNilNode(n ast.Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
