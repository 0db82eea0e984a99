package sim

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any replay leaves a goroutine running:
// every world must close its clients and nodes (the servers kept for
// reuse are closed first).
func TestMain(m *testing.M) { goleak.VerifyTestMain(drained{m}) }

type drained struct{ m *testing.M }

func (d drained) Run() int {
	code := d.m.Run()
	CloseIdleServers()
	return code
}
