//go:build !unix

package sqlite

import "github.com/storectl/storectl/internal/mirror/backend"

// refusedFile cannot ask the system which file it refuses here: the error
// names the mirror and SQLite's words.
func refusedFile(string) (string, backend.FileCause) { return "", 0 }
