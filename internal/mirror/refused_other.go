//go:build !unix

package mirror

// refusedFile cannot ask the system which file it refuses here: the error
// names the mirror and SQLite's words.
func refusedFile(string) (string, FileCause) { return "", 0 }
