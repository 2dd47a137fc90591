//go:build !race

package engine

// raceEnabled: this test binary was built with -race.
const raceEnabled = false
