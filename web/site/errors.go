// errors.go is web's one error path: every failure becomes an *Error with
// a status, and one function renders it as a page or as JSON in the
// request's language. Internal errors are logged, never shown.

package site

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"

	"locklab/web/i18n"
	"locklab/web/limits"
)

// Error is a failure on its way to the learner.
type Error struct {
	Status int
	Title  string // short heading, in the page's language
	Text   string // one or two sentences, in the page's language
	Code   string // machine-readable, for JSON
	// Recover is a link that keeps what the learner did (the valid part of
	// their timeline), when there is one; Hint introduces it.
	Recover, RecoverText, Hint string
	// Err is the cause, for the log only.
	Err error
	// Keep, if set, is shown under the reason: what the learner sent (the
	// design page's form, as they typed it), to fix and send again.
	Keep templ.Component
	// Editor: Keep holds scripts, which the page's code editor edits (with
	// line numbers, and the line an error names marked).
	Editor bool
	// RetryAfter, in seconds, is sent as Retry-After (a 429).
	RetryAfter int
}

// Limit takes one request of kind k from the share of r's client
// (limits.Limiter); past it, the 429 to show instead, in u's language,
// saying when to try again.
func (s *Site) Limit(r *http.Request, u *i18n.UI, k limits.Kind) *Error {
	ok, retry := s.Limits.Allow(r, k)
	if ok {
		return nil
	}
	secs := max(1, int(math.Ceil(retry.Seconds())))
	return &Error{Status: http.StatusTooManyRequests, Title: u.TooManyTitle, Text: i18n.Fill(u.TooMany, strconv.Itoa(secs)),
		Code: "too-many-requests", RetryAfter: secs}
}

func (e *Error) Error() string { return e.Title + ": " + e.Text }

func NotFound(u *i18n.UI) *Error {
	return &Error{Status: http.StatusNotFound, Title: u.NotFound, Text: u.NotFoundText, Code: "not-found",
		Recover: "/" + u.Lang + "/", RecoverText: u.Home}
}

// Busy: too many replays are running; the learner's timeline is fine and
// the same link will work in a moment.
func Busy(u *i18n.UI) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Title: u.ErrorTitle, Text: u.Busy, Code: "busy"}
}

// Unreachable: the live Redis backend (-redis) did not answer in time.
// Not the learner's fault and not a bug: 503, and the same link works
// once that server is back.
func Unreachable(u *i18n.UI, err error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Title: u.ErrorTitle, Text: u.RedisDown, Code: "redis-unreachable", Err: err}
}

func Internal(u *i18n.UI, err error) *Error {
	return &Error{Status: http.StatusInternalServerError, Title: u.ErrorTitle, Text: u.InternalText, Code: "internal", Err: err}
}

type jsonKey struct{}

// JSONErrors marks r as a request whose failures are told in JSON (an
// API's answers whose address does not end in .json, like oEmbed's).
func JSONErrors(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), jsonKey{}, true))
}

// Fail writes e for the request: JSON for .json paths, a page otherwise.
func (s *Site) Fail(w http.ResponseWriter, r *http.Request, u *i18n.UI, e *Error) {
	switch {
	case e.Status >= 500 && e.Err == nil:
		// a refusal the server chose (busy, a share spent, a cap): no
		// failure, and a flood of them must not bury the real errors
		s.Log.Warn("request refused", "path", r.URL.Path, "status", e.Status, "code", e.Code)
	case e.Status >= 500:
		s.Log.Error("request failed", "path", r.URL.Path, "err", e.Err)
	case e.Err != nil:
		s.Log.Info("bad request", "path", r.URL.Path, "status", e.Status, "err", e.Err.Error())
	}
	w.Header().Set("Cache-Control", "no-store")
	if e.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "2")
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if strings.HasSuffix(r.URL.Path, ".json") || r.Context().Value(jsonKey{}) != nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(e.Status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"status": e.Status, "code": e.Code, "title": e.Title, "message": e.Text, "recover": e.Recover,
		}})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(e.Status)
	frame := s.Frame(u, e.Title, r)
	frame.Editor = e.Editor
	if err := ErrorPage(frame, e).Render(r.Context(), w); err != nil {
		s.Log.Warn("error page not written", "err", err)
	}
}

// Clip shortens a value quoted back in an error to 40 characters (runes:
// it never cuts one in two), invalid UTF-8 replaced.
func Clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}
