// json.go serves a timeline as JSON: the same replay the page shows, for
// integrations, tests and export.
package web

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"locklab/sim"
)

type jsonEvent struct {
	Seq      int      `json:"seq"`
	AtMS     int64    `json:"at_ms"`
	Step     int      `json:"step"`
	Actor    string   `json:"actor"`
	Kind     sim.Kind `json:"kind"`
	Node     string   `json:"node,omitempty"`
	Command  []string `json:"command,omitempty"`
	Script   string   `json:"script,omitempty"`
	Reply    string   `json:"reply,omitempty"`
	Purpose  string   `json:"purpose,omitempty"`
	Token    int64    `json:"token,omitempty"`
	Accepted *bool    `json:"accepted,omitempty"`
	Key      string   `json:"key,omitempty"`
	Owner    string   `json:"owner,omitempty"`
	MS       int64    `json:"ms,omitempty"`
}

type jsonViolation struct {
	AtMS    int64             `json:"at_ms"`
	Kind    sim.ViolationKind `json:"kind"`
	Actors  []string          `json:"actors"`
	Event   int               `json:"event"`
	Message string            `json:"message"`
}

type jsonTimeline struct {
	Lesson     string          `json:"lesson"`
	Lang       string          `json:"lang"`
	Scenario   string          `json:"scenario"`
	Do         string          `json:"do"`
	Opt        string          `json:"opt"`
	NowMS      int64           `json:"now_ms"`
	Events     []jsonEvent     `json:"events"`
	Violations []jsonViolation `json:"violations"`
	Storage    jsonStorage     `json:"storage"`
	LockTTLMS  int64           `json:"lock_ttl_ms"`
	Clients    []jsonClient    `json:"clients"`
}

type jsonStorage struct {
	Kind      sim.StoreKind `json:"kind"`
	Value     string        `json:"value"`
	LastToken int64         `json:"last_token"`
	Fenced    bool          `json:"fenced"`
	Charges   []string      `json:"charges"`
}

type jsonClient struct {
	ID    string    `json:"id"`
	State sim.State `json:"state"`
	Token int64     `json:"token"`
}

func (s *Server) timelineJSON(w http.ResponseWriter, r *http.Request) {
	u := T(chi.URLParam(r, "lang"))
	l, st, tl, e := s.load(r, u)
	if e != nil {
		s.fail(w, r, u, e)
		return
	}
	out := jsonTimeline{Lesson: l.Slug, Lang: u.Lang, Scenario: l.Scenario.ID, Do: st.Do(), Opt: st.Opt(),
		NowMS: tl.Now, Storage: jsonStorage(tl.Storage), LockTTLMS: tl.LockTTL,
		Events: []jsonEvent{}, Violations: []jsonViolation{}}
	for _, e := range tl.Events {
		out.Events = append(out.Events, jsonEvent{Seq: e.Seq, AtMS: e.At, Step: e.Step, Actor: e.Actor, Kind: e.Kind,
			Node: e.Node, Command: e.Command, Script: e.Script, Reply: e.Reply, Purpose: e.Purpose,
			Token: e.Token, Accepted: e.Accepted, Key: e.Key, Owner: e.Owner, MS: e.Ms})
	}
	for _, v := range tl.Violations {
		out.Violations = append(out.Violations, jsonViolation{AtMS: v.At, Kind: v.Kind, Actors: v.Actors, Event: v.Event,
			Message: violationText(u, v)})
	}
	for _, c := range tl.Clients {
		out.Clients = append(out.Clients, jsonClient{ID: c.ID, State: c.State, Token: c.Token})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	_ = enc.Encode(out)
}
