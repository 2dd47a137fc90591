//go:build race

package cli

// raceEnabled: this test binary was built with -race.
const raceEnabled = true
