package web

import (
	"testing"

	"go.uber.org/goleak"

	"locklab/sim"
)

// TestMain fails the package if a goroutine outlives the tests: every
// request's replay must close its miniredis nodes and go-redis clients
// (the servers kept for reuse are closed first).
func TestMain(m *testing.M) { goleak.VerifyTestMain(drained{m}) }

type drained struct{ m *testing.M }

func (d drained) Run() int {
	code := d.m.Run()
	closeBrowser()
	sim.CloseIdleServers()
	return code
}
