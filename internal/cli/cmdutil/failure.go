package cmdutil

import (
	"errors"
	"fmt"
	"io"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/output"
)

// SayFailure says err on w as storectl says every failure: "storectl: "
// and the message, then "hint: " and what to do; nothing for an error
// already said (exitcode.Silent). Main says a run's failure with it, and a
// read over several stores says each store's failure with it on that
// store's stderr, so a failure reads the same for one store or many.
func SayFailure(w io.Writer, err error) {
	var silent *exitcode.Silent
	if errors.As(err, &silent) {
		return
	}
	err = Explain(err)
	fmt.Fprintf(w, "storectl: %s\n", output.Message(err.Error()))
	if hint := exitcode.HintOf(err); hint != "" {
		fmt.Fprintf(w, "hint: %s\n", output.Message(hint))
	}
}

// Explain gives an engine's typed error the command line's words: a hint
// naming the flag that helps. The engines name no flag or command (they
// serve storectl mcp too); an error that has a hint keeps it.
func Explain(err error) error {
	if err == nil || exitcode.HintOf(err) != "" {
		return err
	}
	if hint := hintFor(err); hint != "" {
		return exitcode.WithHint(exitcode.Of(err), err, hint)
	}
	return err
}

func hintFor(err error) string {
	var (
		journal    *bulk.JournalError
		network    *httpx.NetworkError
		badShop    *shop.BadResponse
		badCatalog *catalog.BadResponse
	)
	switch {
	case errors.As(err, &journal):
		return JournalHint(journal)
	case errors.As(err, &network) && network.Timeout > 0:
		return "--timeout D waits longer for each answer (such as --timeout 2m)"
	case errors.As(err, &badShop) || errors.As(err, &badCatalog):
		return "run it again with --debug to see the response"
	}
	return ""
}
