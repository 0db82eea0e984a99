package sim

import (
	"errors"
	"slices"
	"testing"
)

// throwaways registers a client verb and a node fault that exist only in
// this test, each one entry of the table and nothing else, and returns
// the function that takes them out again and a copy of the Redlock
// scenario that offers the node fault.
func throwaways(t *testing.T) *Scenario {
	t.Helper()
	t.Cleanup(Register(ActionSpec{Verb: "wave", Doer: ByClient, Needs: NeedInside, Explore: ExploreFault, Cost: CostCrash,
		Do: func(x *Act) error { x.w.record(Event{Actor: x.c.ID, Kind: "wave"}); return nil }}))
	t.Cleanup(Register(ActionSpec{Verb: "partition", Doer: ToNode, Arg: ArgDuration, Default: 3000,
		Explore: ExploreFault, Cost: CostNode,
		Refuse: func(x *Act) Code { return nodeRefuse(x.n.latency > 0) },
		Do:     func(x *Act) error { x.n.latency = x.Ms; return nil }}))
	sc, _ := Lookup("redlock")
	cp := *sc
	cp.NodeVerbs = append(slices.Clone(sc.NodeVerbs), "partition")
	return &cp
}

// TestThrowawayActions: a verb added by one table entry parses, prints
// back the same, replays, is refused by its rule, is offered where the
// scenario offers it and is explored within the budget it names. (Its
// label is web's: TestThrowawayVerbLabelled.)
func TestThrowawayActions(t *testing.T) {
	sc := throwaways(t)
	const do = "a.acquire,a.wave,n2.partition.3s"
	as, err := ParseActions(do)
	if err != nil || FormatActions(as) != do {
		t.Fatalf("parse %q: %v, %v", do, as, err)
	}
	if as[1].Doer() != ByClient || as[2].Doer() != ToNode {
		t.Errorf("doers: %v %v", as[1].Doer(), as[2].Doer())
	}
	for bad, code := range map[string]Code{"a.partition.3s": CodeUnknownVerb, "n2.wave": CodeUnknownVerb, "n2.partition": CodeBadDuration} {
		var ae *ActionError
		if _, err := ParseActions(bad); !errors.As(err, &ae) || ae.Code != code {
			t.Errorf("%s: %v, want %s", bad, err, code)
		}
	}
	tl, err := Replay(sc, sc.DefaultOpts(), as)
	if err != nil {
		t.Fatal(err)
	}
	waved, cut := false, false
	for _, e := range tl.Events {
		waved = waved || (e.Kind == "wave" && e.Actor == "a")
		cut = cut || (e.Kind == KindNode && e.Node == "n2" && e.Text == "partition" && e.Ms == 3000)
	}
	if !waved || !cut {
		t.Errorf("the replay did not do them: wave %v, partition %v\n%s", waved, cut, tl.Transcript())
	}
	if !slices.Contains(tl.Allowed["a"], "wave") || slices.Contains(tl.Allowed["b"], "wave") {
		t.Errorf("wave offered to %v", tl.Allowed)
	}
	if slices.Contains(tl.NodeAllowed["n2"], "partition") || !slices.Contains(tl.NodeAllowed["n3"], "partition") {
		t.Errorf("partition offered on %v", tl.NodeAllowed)
	}
	for do, code := range map[string]Code{"b.wave": CodeNotHolding, "n2.partition.1s,n2.partition.1s": CodeNodeState} {
		as, _ := ParseActions(do)
		var ae *ActionError
		if _, err := Replay(sc, sc.DefaultOpts(), as); !errors.As(err, &ae) || ae.Code != code {
			t.Errorf("%s: %v, want %s", do, err, code)
		}
	}
	plain, _ := Lookup("redlock")
	var ae *ActionError
	if _, err := Replay(plain, plain.DefaultOpts(), as); !errors.As(err, &ae) || ae.Code != CodeUnknownVerb {
		t.Errorf("a scenario that does not offer partition replayed it: %v", err)
	}
	if !sc.OffersFault(CostNode) || !slices.Contains(sc.NodeFaults(), "partition") {
		t.Error("the explorer does not count partition among the node faults")
	}

	// The search (sim/explore) chooses among the machine's offers by
	// their use and cost alone: offered as a crash-costing fault of a
	// started client and a node fault, they are explored within those
	// budgets.
	m, err := NewMachine(sc, sc.DefaultOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Step(0, as[0]); err != nil {
		t.Fatal(err)
	}
	offered := map[string]Offer{}
	for _, o := range m.Offers(2) {
		offered[o.Action.String()] = o
	}
	if o, ok := offered["a.wave"]; !ok || o.Use != ExploreFault || o.Cost != CostCrash || !o.Started || o.Client != 0 {
		t.Errorf("a.wave offered as %+v (%v)", o, ok)
	}
	if o, ok := offered["n1.partition.3s"]; !ok || o.Use != ExploreFault || o.Cost != CostNode || o.Client != -1 {
		t.Errorf("n1.partition.3s offered as %+v (%v)", o, ok)
	}
	if _, ok := offered["b.wave"]; ok {
		t.Errorf("b.wave offered to a client that does not hold the lock")
	}
}
