// Package sitetest builds the whole site for the tests of a feature's
// package that need it (an external test package such as class_test):
// web.New with the embedded lessons and assets, a quiet log. It imports
// web, so web's own tests cannot use it; they build the site themselves.
package sitetest

import (
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"locklab/lessons"
	"locklab/sim"
	"locklab/static"
	"locklab/web"
	"locklab/web/site"
)

// Handler is the whole site with cfg.
func Handler(t testing.TB, cfg web.Config) http.Handler {
	t.Helper()
	return Server(t, sim.ReplayContext, cfg).Handler()
}

// Default is the whole site as the tests use it: Lab explorations get
// more time than a server gives them, so a slow CI runner never turns a
// complete search into an early stop (the Lab's busy test checks the real
// deadline).
func Default(t testing.TB) http.Handler {
	t.Helper()
	return Handler(t, web.Config{Config: site.Config{Version: "test", LabDeadline: 30 * time.Second}})
}

// Server is the site with replay as its replay function (a test's own,
// slow or panicking one) and cfg.
func Server(t testing.TB, replay web.ReplayFunc, cfg web.Config) *web.Server {
	t.Helper()
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	assets, err := site.NewAssets(static.FS)
	if err != nil {
		t.Fatal(err)
	}
	return web.New(course, assets, replay, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg)
}
