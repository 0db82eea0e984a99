// json.go serves a timeline as JSON (the same replay the page shows) and a
// lesson's outline as JSON, for integrations, tests and export.

package lesson

import (
	"encoding/json"
	"html"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/narrate"
	"locklab/web/site"
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
	// LockTTLMS is the lock key's TTL on the node clients start with
	// (the primary, Redlock's n1), 0 without one; Nodes has every node's.
	LockTTLMS int64        `json:"lock_ttl_ms"`
	Nodes     []jsonNode   `json:"nodes"`
	Clients   []jsonClient `json:"clients"`
}

// jsonNode is a lock node (a Redis server; a modelled service has none of
// these keys): its lock key's TTL as PTTL would answer it.
type jsonNode struct {
	Name     string `json:"name"`
	Down     bool   `json:"down"`
	LockPTTL int64  `json:"lock_pttl_ms"`
}

type jsonStorage struct {
	Kind       sim.StoreKind `json:"kind"`
	Value      string        `json:"value"`
	LastToken  int64         `json:"last_token"` // the token key's value
	HasToken   bool          `json:"has_token"`  // the token key exists
	TokenText  string        `json:"token_text"` // … and its value as stored
	Fenced     bool          `json:"fenced"`
	Charges    []string      `json:"charges"`     // the first sim.ChargesShown
	ChargesLen int           `json:"charges_len"` // how many the ledger holds
}

type jsonClient struct {
	ID    string    `json:"id"`
	State sim.State `json:"state"`
	Token int64     `json:"token"`
}

func (s *Handler) TimelineJSON(w http.ResponseWriter, r *http.Request) {
	rq := RequestOf(r)
	s.Cached(w, r, rq.UI, func() ([]byte, string, *site.Error) {
		tl, e := s.replay(r.Context(), rq)
		if e != nil {
			return nil, "", e
		}
		return encodeJSON(timelineOut(rq.UI, rq.L, rq.St, tl))
	})
}

// encodeJSON is the one JSON encoding of the site: indented, UTF-8.
func encodeJSON(v any) ([]byte, string, *site.Error) {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return nil, "", &site.Error{Status: http.StatusInternalServerError, Code: "internal", Err: err}
	}
	return append(b, '\n'), "application/json; charset=utf-8", nil
}

func timelineOut(u *i18n.UI, l *lessons.Lesson, st URLState, tl *sim.Timeline) jsonTimeline {
	out := jsonTimeline{Lesson: l.Slug, Lang: u.Lang, Scenario: l.Scenario.ID, Do: st.Do(), Opt: st.Opt(),
		NowMS: tl.Now, Storage: jsonStorage(tl.Storage), LockTTLMS: tl.LockTTL,
		Events: []jsonEvent{}, Violations: []jsonViolation{}}
	for _, e := range tl.Events {
		cmd := e.Command
		if e.Model {
			cmd = narrate.ModelArgs(u, cmd) // a model's words in the page's language, argument by argument
		}
		out.Events = append(out.Events, jsonEvent{Seq: e.Seq, AtMS: e.At, Step: e.Step, Actor: e.Actor, Kind: e.Kind,
			Node: e.Node, Command: cmd, Script: e.Script, Reply: narrate.EventReply(u, e), Purpose: e.Purpose,
			Token: e.Token, Accepted: e.Accepted, Key: e.Key, Owner: e.Owner, MS: e.Ms})
	}
	for _, v := range tl.Violations {
		out.Violations = append(out.Violations, jsonViolation{AtMS: v.At, Kind: v.Kind, Actors: v.Actors, Event: v.Event,
			Message: narrate.ViolationText(u, v)})
	}
	for _, c := range tl.Clients {
		out.Clients = append(out.Clients, jsonClient{ID: c.ID, State: c.State, Token: c.Token})
	}
	out.Nodes = []jsonNode{}
	for _, n := range tl.Nodes {
		if !n.Model {
			out.Nodes = append(out.Nodes, jsonNode{Name: n.Name, Down: n.Down, LockPTTL: n.LockTTL})
		}
	}
	return out
}

type jsonLesson struct {
	Slug     string     `json:"slug"`
	Lang     string     `json:"lang"`
	Title    string     `json:"title"`
	Summary  string     `json:"summary"`
	Order    int        `json:"order"`
	Scenario string     `json:"scenario"`
	Steps    []jsonStep `json:"steps"`
}

type jsonStep struct {
	N          int                 `json:"n"`
	Title      string              `json:"title"`
	Do         string              `json:"do"`
	Opt        string              `json:"opt"`
	URL        string              `json:"url"`
	Violations []sim.ViolationKind `json:"violations"`
	Checkpoint *jsonCheckpoint     `json:"checkpoint"`
}

// jsonCheckpoint is a checkpoint's question and its choices, not which
// one is right nor why: a live class may be answering that very
// question, and the JSON is public. The lesson page says both at the
// step that answers it.
type jsonCheckpoint struct {
	Question string       `json:"question"`
	Choices  []jsonChoice `json:"choices"`
}

type jsonChoice struct {
	Text string `json:"text"`
}

// Outline is a lesson's outline: its guided steps with their URL state,
// the kinds of violation each step's timeline shows and its checkpoint's
// question and choices (on the step that answers it). Text is plain: the rendered HTML with its
// tags stripped and entities decoded, so `SET` in the lesson reads SET.
func (s *Handler) Outline(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	l, ok := s.Course.Get(u.Lang, chi.URLParam(r, "slug"))
	if !ok {
		s.Fail(w, r, u, site.NotFound(u))
		return
	}
	out := jsonLesson{Slug: l.Slug, Lang: l.Lang, Title: l.Title, Summary: l.Summary, Order: l.Order,
		Scenario: l.Scenario.ID, Steps: []jsonStep{}}
	for i, st := range l.Steps {
		js := jsonStep{N: i + 1, Title: st.Title, Do: st.Do, Opt: st.Opt, URL: links.Lesson(l) + links.Query(st.Do, st.Opt),
			Violations: append([]sim.ViolationKind{}, st.Violations...), Checkpoint: checkpointJSON(st.Checkpoint)}
		out.Steps = append(out.Steps, js)
	}
	s.Cached(w, r, u, func() ([]byte, string, *site.Error) { return encodeJSON(out) })
}

func checkpointJSON(cp *lessons.Checkpoint) *jsonCheckpoint {
	if cp == nil {
		return nil
	}
	out := &jsonCheckpoint{Question: PlainText(cp.QuestionHTML)}
	for _, c := range cp.Choices {
		out.Choices = append(out.Choices, jsonChoice{Text: PlainText(c.HTML)})
	}
	return out
}

// PlainText turns rendered lesson HTML into text: tags dropped, entities
// decoded, runs of white space made one space. Lesson HTML comes from
// goldmark, which escapes every "<" in text, so a "<" always opens a tag.
func PlainText(h string) string {
	var b strings.Builder
	inTag := false
	for _, r := range h {
		switch {
		case r == '<':
			inTag = true
		case r == '>' && inTag:
			inTag = false
		case !inTag:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(html.UnescapeString(b.String())), " ")
}
