//go:build race

package output

// raceEnabled scales heavy tests down: the race detector makes them ~10x slower.
const raceEnabled = true
