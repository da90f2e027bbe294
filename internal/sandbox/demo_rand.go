package sandbox

// demoRand is a small deterministic generator (SplitMix64) so that the demo
// state is the same on every machine and Go version; math/rand's sequences
// are not promised to stay stable.
type demoRand struct{ state uint64 }

func (r *demoRand) next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// intn returns a number in [0, n).
func (r *demoRand) intn(n int) int {
	return int(r.next() % uint64(n))
}

// chance returns true with probability percent/100.
func (r *demoRand) chance(percent int) bool {
	return r.intn(100) < percent
}

func pick[T any](r *demoRand, items []T) T {
	return items[r.intn(len(items))]
}
