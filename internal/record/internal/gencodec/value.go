package gencodec

import (
	"fmt"
	"reflect"
	"strings"
)

// value writes the statements that append expr, of type t, to b. addr says whether
// encoding/json would see the value as addressable (a field reached through the
// record's pointer, a slice element, a pointer's target) or not (a map value, an
// interface's content): pointer-receiver methods apply only to addressable values.
// owner is the struct type whose function is being written.
func (g *gen) value(owner reflect.Type, expr string, t reflect.Type, addr bool) error {
	if t.Kind() == reflect.Interface {
		switch {
		case t.NumMethod() == 0:
			g.p("b = e.appendAny(b, %s)", expr)
		case addr:
			g.p("b = e.appendAddr(b, &%s)", expr)
		case marshals(t, false):
			// encoding/json calls the method on the interface value (even holding a
			// nil pointer); handing it the content would not.
			return fmt.Errorf("gencodec: a non-addressable %v (an interface with MarshalJSON or MarshalText) is not supported", t)
		default:
			g.p("b = e.appendValue(b, %s)", expr)
		}
		return nil
	}
	if t.Kind() != reflect.Pointer && t.Implements(marshalerType) && t.Implements(appenderType) {
		// The type's own allocation-free form of its MarshalJSON (see appenderType).
		g.p("b = %s.AppendJSON(b)", expr)
		return nil
	}
	if t.Kind() != reflect.Pointer && t.Implements(marshalerType) && t.Name() != "" {
		// A value-receiver MarshalJSON: call it without boxing the value.
		x := g.newVar("x")
		g.p("{\n%s := %s", x, expr)
		g.p("out, err := %s.MarshalJSON()", x)
		g.imports["reflect"] = true
		g.p("b = e.appendMarshaled(b, out, err, func() reflect.Type { return reflect.TypeOf(%s) })\n}", x)
		return nil
	}
	if t == numberType || marshals(t, addr) {
		g.deferTo(expr, addr)
		return nil
	}
	switch t.Kind() {
	case reflect.Bool:
		g.imports["strconv"] = true
		g.p("b = strconv.AppendBool(b, bool(%s))", expr)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		g.imports["strconv"] = true
		g.p("b = strconv.AppendInt(b, int64(%s), 10)", expr)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		g.imports["strconv"] = true
		g.p("b = strconv.AppendUint(b, uint64(%s), 10)", expr)
	case reflect.Float32:
		g.p("b = e.appendFloat(b, float64(%s), 32)", expr)
	case reflect.Float64:
		g.p("b = e.appendFloat(b, float64(%s), 64)", expr)
	case reflect.String:
		g.p("b = appendJSONString(b, string(%s))", expr)
	case reflect.Pointer:
		if t.Name() != "" {
			g.deferTo(expr, addr)
			return nil
		}
		x := g.newVar("p")
		g.p("if %s := %s; %s == nil {\nb = append(b, \"null\"...)\n} else {", x, expr, x)
		if err := g.value(owner, "(*"+x+")", t.Elem(), true); err != nil {
			return err
		}
		g.p("}")
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			g.deferTo(expr, addr) // base64, unless the element type marshals itself
			return nil
		}
		s, i := g.newVar("s"), g.newVar("i")
		g.p("if %s := %s; %s == nil {\nb = append(b, \"null\"...)\n} else {", s, expr, s)
		g.p("b = append(b, '[')")
		g.p("for %s := range %s {\nif %s > 0 {\nb = append(b, ',')\n}", i, s, i)
		if err := g.value(owner, s+"["+i+"]", t.Elem(), true); err != nil {
			return err
		}
		g.p("}\nb = append(b, ']')\n}")
	case reflect.Array:
		a, i := g.newVar("a"), g.newVar("i")
		if addr {
			g.p("{\n%s := &%s", a, expr)
		} else {
			g.p("{\n%s := %s", a, expr)
		}
		g.p("b = append(b, '[')")
		g.p("for %s := range %d {\nif %s > 0 {\nb = append(b, ',')\n}", i, t.Len(), i)
		if err := g.value(owner, a+"["+i+"]", t.Elem(), addr); err != nil {
			return err
		}
		g.p("}\nb = append(b, ']')\n}")
	case reflect.Map:
		k := t.Key()
		if k.Kind() != reflect.String || !(k.PkgPath() == "" || k.PkgPath() == g.pkg) {
			g.deferTo(expr, addr) // integer and MarshalText keys; key types we cannot name
			return nil
		}
		m, ks, i, key := g.newVar("m"), g.newVar("ks"), g.newVar("i"), g.newVar("k")
		g.imports["slices"] = true
		g.p("if %s := %s; %s == nil {\nb = append(b, \"null\"...)\n} else {", m, expr, m)
		g.p("b = append(b, '{')")
		g.p("%s := e.keys()", ks)
		g.p("for %s := range %s {\n%s = append(%s, string(%s))\n}", key, m, ks, ks, key)
		g.p("slices.Sort(%s)", ks) // strings.Compare order, as encoding/json sorts
		g.p("for %s, %s := range %s {\nif %s > 0 {\nb = append(b, ',')\n}", i, key, ks, i)
		g.p("b = appendJSONString(b, %s)\nb = append(b, ':')", key)
		kexpr := key
		if k.Name() != "string" || k.PkgPath() != "" {
			kexpr = k.Name() + "(" + key + ")"
		}
		if err := g.value(owner, m+"["+kexpr+"]", t.Elem(), false); err != nil {
			return err
		}
		g.p("}\ne.putKeys(%s)\nb = append(b, '}')\n}", ks)
	case reflect.Struct:
		if !addr || t.Name() == "" || t.PkgPath() != g.pkg {
			g.deferTo(expr, addr)
			return nil
		}
		g.want(t)
		g.calls[owner] = append(g.calls[owner], t)
		ptr := "&" + expr
		if strings.HasPrefix(expr, "(*") && strings.HasSuffix(expr, ")") {
			ptr = expr[2 : len(expr)-1] // a pointer's target: the pointer itself
		}
		g.p("b = e.%s(b, %s)", funcName(t), ptr)
	default: // channels, functions, complex numbers: encoding/json's error
		g.deferTo(expr, addr)
	}
	return nil
}

// deferTo leaves expr to encoding/json, through a pointer when it is addressable (see
// appendAddr) so that pointer-receiver methods apply as they would.
func (g *gen) deferTo(expr string, addr bool) {
	if addr {
		g.p("b = e.appendAddr(b, &%s)", expr)
	} else {
		g.p("b = e.appendValue(b, %s)", expr)
	}
}
