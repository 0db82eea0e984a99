package sim

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any replay leaves a goroutine running:
// every world must close its clients and nodes.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
