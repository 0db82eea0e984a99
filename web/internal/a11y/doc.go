// Package a11y holds only tests: axe-core on one of every kind of page,
// in every language, at phone and desktop width, light and dark
// (TestAccessibility). It is a package of its own so that its test
// binary, the suite's heaviest, runs beside the others instead of after
// them.
package a11y
