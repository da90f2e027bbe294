package manystores

import "golang.org/x/sys/unix"

// physicalMemory is the machine's memory in bytes, 0 when unknown.
func physicalMemory() uint64 {
	n, err := unix.SysctlUint64("hw.memsize")
	if err != nil {
		return 0
	}
	return n
}
