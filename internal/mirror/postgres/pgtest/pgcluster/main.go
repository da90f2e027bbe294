// Command pgcluster starts and stops the throwaway PostgreSQL server of
// .ci/run, scripts/bench and a developer's `go test` session:
//
//	go run ./internal/mirror/postgres/pgtest/pgcluster start DIR   # prints the server's URL
//	go run ./internal/mirror/postgres/pgtest/pgcluster stop DIR
//
// start -durable keeps fsync on (benchmarks). Export the URL as
// STORECTL_TEST_PG_URL for the tests.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
)

func main() {
	durable := flag.Bool("durable", false, "keep fsync and synchronous_commit on")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: pgcluster [-durable] start|stop DIR")
		os.Exit(2)
	}
	dir, err := filepath.Abs(flag.Arg(1))
	if err == nil {
		err = run(flag.Arg(0), dir, *durable)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgcluster:", err)
		os.Exit(1)
	}
}

func run(verb, dir string, durable bool) error {
	switch verb {
	case "start":
		c, err := pgtest.Start(dir, pgtest.Options{Durable: durable})
		if err != nil {
			return err
		}
		fmt.Println(c.URL)
		return nil
	case "stop":
		c, err := pgtest.Attach(dir)
		if err != nil {
			return err
		}
		return c.Stop()
	}
	return fmt.Errorf("unknown verb %q: start or stop", verb)
}
