//go:build !linux && !darwin

package manystores

// physicalMemory is unknown here: the limit of open files alone bounds
// how many stores run at once.
func physicalMemory() uint64 { return 0 }
