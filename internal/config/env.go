package config

import "os"

// Getenv reads one of the process's environment variables. storectl reads
// its environment in this package alone (and the terminal's own
// conventions in iostreams): the settings resolved here carry what the
// variables say, and the few parts that read a variable of their own (a
// token, the webhook secret, the sandbox's knobs) are handed this function
// through the Factory, so that tests hand them theirs.
func Getenv(name string) string { return os.Getenv(name) }
