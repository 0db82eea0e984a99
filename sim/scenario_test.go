package sim

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// TestLookupHandsOutCopies: whatever a caller does to the scenario Lookup
// gave it, every field and list included, the next Lookup is unchanged.
func TestLookupHandsOutCopies(t *testing.T) {
	for _, id := range ScenarioIDs() {
		before, _ := Lookup(id)
		want := fmt.Sprintf("%#v", *before)
		sc, _ := Lookup(id)
		scramble(reflect.ValueOf(sc).Elem())
		if fmt.Sprintf("%#v", *sc) == want {
			t.Fatalf("%s: scramble changed nothing", id)
		}
		after, _ := Lookup(id)
		if got := fmt.Sprintf("%#v", *after); got != want {
			t.Errorf("%s: changing a looked-up scenario changed the table:\n got %s\nwant %s", id, got, want)
		}
	}
}

// scramble overwrites every value reachable from v: scalars get a
// non-zero mark, slice elements and map entries are changed in place.
func scramble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				scramble(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			scramble(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			scramble(e)
			v.SetMapIndex(k, e)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			scramble(v.Elem())
		}
	case reflect.String:
		v.SetString(v.String() + "×")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 7)
	}
}

// TestEpoch: virtual time zero is the documented instant.
func TestEpoch(t *testing.T) {
	if got, want := instant(0), time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC); !got.Equal(want) || got.Location() != time.UTC {
		t.Errorf("instant(0) = %v, want %v", got, want)
	}
}
