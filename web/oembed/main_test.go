package oembed_test

import (
	"testing"

	"locklab/web/internal/webtest"
)

func TestMain(m *testing.M) { webtest.Main(m) }
