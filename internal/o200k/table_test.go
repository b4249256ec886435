package o200k

import (
	"reflect"
	"strings"
	"testing"
)

// TestTableHasTheLibrarysRanks holds the Table to the map the library is
// handed (ranks, from the same embedded file): every token has its rank,
// and nothing else is a token.
func TestTableHasTheLibrarysRanks(t *testing.T) {
	m, err := ranks()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != len(m) {
		t.Errorf("Table has %d tokens, the library's map %d", tab.Len(), len(m))
	}
	for tok, want := range m {
		if got, ok := tab.Rank(tok); !ok || got != want {
			t.Fatalf("Rank(%q) = %d, %v; the library's rank is %d", tok, got, ok, want)
		}
	}
	for _, s := range []string{"", "\x00\x00\x00\x00\x00", "hello world, this is not one token", strings.Repeat("z", 300)} {
		if _, in := m[s]; in {
			continue
		}
		if r, ok := tab.Rank(s); ok {
			t.Errorf("Rank(%q) = %d, true; the library has no such token", s, r)
		}
	}
}

// TestTableHasNoPointers: the collector must have nothing to read in a
// Table's arrays. Its fields are slices (their headers are its only
// pointers) of element types that hold no pointer.
func TestTableHasNoPointers(t *testing.T) {
	typ := reflect.TypeOf(Table{})
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		switch {
		case f.Type.Kind() == reflect.Slice && !hasPointers(f.Type.Elem()):
		case f.Type.Kind() != reflect.Slice && !hasPointers(f.Type):
		default:
			t.Errorf("Table.%s (%s) holds pointers", f.Name, f.Type)
		}
	}
	if !hasPointers(reflect.TypeOf([]string{})) || !hasPointers(reflect.TypeOf(struct{ m map[string]int }{})) {
		t.Fatal("hasPointers misses pointers")
	}
}

// hasPointers reports whether a value of typ holds a pointer the garbage
// collector follows.
func hasPointers(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return typ.Len() > 0 && hasPointers(typ.Elem())
	case reflect.Struct:
		for i := 0; i < typ.NumField(); i++ {
			if hasPointers(typ.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true // pointers, slices, strings, maps, channels, functions, interfaces
}

func TestParseTableRejects(t *testing.T) {
	for name, file := range map[string]string{
		"no rank":          "IQ==\n",
		"no space":         "IQ==0\n",
		"bad base64":       "I!== 0\n",
		"bad rank":         "IQ== x\n",
		"negative rank":    "IQ== -1\n",
		"rank over uint32": "IQ== 4294967296\n",
		"empty token":      " 0\n",
		"repeated rank":    "IQ== 0\nIg== 0\n",
		"repeated token":   "IQ== 0\nIQ== 1\n",
	} {
		if tab, err := ParseTable([]byte(file)); err == nil {
			t.Errorf("%s: ParseTable(%q) = %d tokens, no error", name, file, tab.Len())
		}
	}
	tab, err := ParseTable([]byte("IQ== 7\n\nIg== 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	for tok, want := range map[string]int{"!": 7, "\"": 3} {
		if got, ok := tab.Rank(tok); !ok || got != want {
			t.Errorf("Rank(%q) = %d, %v; want %d", tok, got, ok, want)
		}
	}
}
