package sim

import (
	"bytes"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"

	"locklab/sim/rediscli"
)

// The reference encoding: a reflective walk of every field of the
// fingerprint's structs (a field is left out only when tagged fp:"-", a
// slice tagged fp:"set" is compared as a set). The explorer's own
// encoder (explore_state.go) is written out by hand for speed; it must
// give the same bytes, so a field added to a struct and forgotten there
// fails TestEncodingIsTheReference.

var (
	typVtime = reflect.TypeFor[vtime]()
	typCid   = reflect.TypeFor[cid]()
	typVal   = reflect.TypeFor[val]()
	typReply = reflect.TypeFor[rediscli.Reply]()
)

// inSet: the reference is encoding a set's element (tests run it on one
// goroutine at a time, under refMu).
var (
	inSet bool
	refMu sync.Mutex
)

// field is how one struct field is encoded.
type field struct {
	i         int
	set       bool // fp:"set": compared as a set
	replyText bool // a Reply's string: a value
}

// fields lists the encoded fields of a struct type (cached: a type's
// fields never change).
func fields(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("fp")
		if tag == "-" {
			continue
		}
		out = append(out, field{i: i, set: tag == "set", replyText: t == typReply && sf.Type.Kind() == reflect.String})
	}
	fieldCache.Store(t, out)
	return out
}

var fieldCache sync.Map // reflect.Type → []field

// enc appends v: every field of a struct, every element of a slice, in
// order, with separators that keep two encodings apart.
func (e *fpEnc) refEnc(b []byte, v reflect.Value) []byte {
	switch v.Type() {
	case typVtime:
		t := v.Int()
		if t > 0 {
			t -= e.now
			b = append(b, '~')
		}
		return strconv.AppendInt(b, t, 10)
	case typCid:
		return str(b, e.id(v.String()))
	case typVal:
		return e.val(b, v.String())
	}
	switch v.Kind() {
	case reflect.Struct:
		b = append(b, '{')
		for _, f := range fields(v.Type()) {
			switch {
			case f.set:
				b = e.refSet(b, v.Field(f.i))
			case f.replyText:
				// A reply's strings are values like the keys': GET
				// answers with a lock value, which reads as whose it is.
				b = e.val(b, v.Field(f.i).String())
			default:
				b = e.refEnc(b, v.Field(f.i))
			}
			b = append(b, ',')
		}
		return append(b, '}')
	case reflect.Slice, reflect.Array:
		b = append(b, '[')
		for i := range v.Len() {
			b = append(e.refEnc(b, v.Index(i)), ';')
		}
		return append(b, ']')
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, "nil"...)
		}
		return e.refEnc(b, v.Elem())
	case reflect.String:
		return str(b, v.String())
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	}
	panic("sim: the fingerprint cannot encode a " + v.Type().String())
}

// set appends a slice whose order is not part of the state: its
// elements' encodings, sorted.
func (e *fpEnc) refSet(b []byte, v reflect.Value) []byte {
	if inSet { // a set inside a set's element: no shared scratch
		parts := make([][]byte, v.Len())
		for i := range parts {
			parts[i] = e.refEnc(nil, v.Index(i))
		}
		slices.SortFunc(parts, bytes.Compare)
		return append(append(b, '['), append(bytes.Join(parts, []byte{';'}), ']')...)
	}
	inSet = true
	e.scratch, e.parts = e.scratch[:0], e.parts[:0]
	for i := range v.Len() {
		from := len(e.scratch)
		e.scratch = e.refEnc(e.scratch, v.Index(i))
		e.parts = append(e.parts, [2]int{from, len(e.scratch)})
	}
	inSet = false
	return e.sortedParts(b)
}

// TestEncodingIsTheReference: every encoding the fingerprint makes, on
// the worlds a short breadth-first walk of every offered move reaches in
// every lesson under each of its options (Redlock's interchangeable
// nodes, the replica's shipments, lost replies, ZooKeeper's and etcd's
// sessions: every set and every struct), with the symmetry and without
// it, is byte for byte the reflective walk's.
func TestEncodingIsTheReference(t *testing.T) {
	for _, id := range ScenarioIDs() {
		sc, _ := Lookup(id)
		variants := []Opts{sc.DefaultOpts()}
		for _, o := range sc.Options {
			for _, v := range o.Values {
				opts := sc.DefaultOpts()
				opts[o.Name] = v
				variants = append(variants, opts)
			}
		}
		for _, opts := range variants {
			m, err := NewMachine(sc, opts)
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			m.checkEncoding = func(en *fpEnc, st *worldState, client int, got []byte) {
				refMu.Lock()
				defer refMu.Unlock()
				checked++
				v := reflect.ValueOf(st).Elem()
				if client >= 0 {
					v = reflect.ValueOf(&st.Clients[client]).Elem()
				}
				if want := en.refEnc(nil, v); !bytes.Equal(got, want) {
					t.Fatalf("%s %s: the encoder wrote\n%s\nthe reference\n%s", id, sc.FormatOptions(opts), got, want)
				}
			}
			type node struct {
				s     *Saved
				depth int
			}
			n := len(sc.Clients)
			queue := []node{{m.Save(nil), 0}}
			for len(queue) > 0 && checked < 2000 {
				at := queue[0]
				queue = queue[1:]
				m.Load(at.s)
				for _, o := range m.Offers(n) {
					a := o.Action
					if o.Use == ExploreWait {
						a.Ms = sc.TTL
					}
					m.Load(at.s)
					if err := m.Step(at.depth, a); err != nil {
						continue // not possible here, or too big
					}
					b := started(m.w)
					b.Pauses, b.Drops = at.depth%2, at.depth%3
					m.fingerprint(b, n, true)
					m.fingerprint(b, n, false)
					if at.depth < 5 {
						queue = append(queue, node{m.Save(at.s), at.depth + 1})
					}
				}
			}
			m.Close()
			if checked < 50 {
				t.Errorf("%s %s: only %d encodings checked", id, sc.FormatOptions(opts), checked)
			}
		}
	}
}
