package web

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a goroutine outlives the tests: every
// request's replay must close its miniredis nodes and go-redis clients.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
