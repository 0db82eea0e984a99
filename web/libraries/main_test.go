package libraries_test

import (
	"testing"

	"locklab/web/internal/webtest"
)

// TestMain fails the package if a goroutine outlives the tests.
func TestMain(m *testing.M) { webtest.Main(m) }
