package catalog

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
)

// Scopes each command's token needs.
const (
	scopeCatalog = "read:catalog"
	scopeConfig  = "read:config"
)

const loginHint = "`storectl auth login --catalog-token-stdin` (STORECTL_CATALOG_TOKEN, when set, overrides the stored token)"

// explain gives catalog API failures the messages of the catalog's own
// rules: what a 401 or 403 means for a catalog token, which scope the
// command needs, and what a No Filter answer is about.
func explain(err error, commandPath, scope string) error {
	var noFilter *api.NoFilterError
	rejection, rejected := cmdutil.RejectionOf(err)
	refusal, refused := cmdutil.RefusalOf(err)
	switch {
	case rejected && rejection.Status == http.StatusUnauthorized && rejection.TokenOrigin != "":
		return exitcode.WithHint(exitcode.Auth,
			fmt.Errorf("the catalog API rejected the token (HTTP 401%s): it came from %s", serverSays(rejection.Message), rejection.TokenOrigin),
			"check or unset it; a token that is missing, invalid, revoked or expired is refused")
	case rejected && rejection.Status == http.StatusUnauthorized:
		return exitcode.WithHint(exitcode.Auth,
			fmt.Errorf("the catalog API rejected the token (HTTP 401%s): it is missing, invalid, revoked or expired", serverSays(rejection.Message)),
			"create a catalog token in the app's settings (API access), then log in with "+loginHint)
	case rejected && rejection.Status == http.StatusForbidden:
		return exitcode.WithHint(exitcode.Auth,
			fmt.Errorf("the catalog API refused the request (HTTP 403%s): `%s` needs a token with the %s scope, or the store is currently unavailable",
				serverSays(rejection.Message), strings.TrimPrefix(commandPath, "storectl "), scope),
			fmt.Sprintf("use a token with the %s scope (create one in the app's settings, API access) and log in with %s; if the token has that scope, the store may be unavailable: try again later", scope, loginHint))
	case errors.As(err, &noFilter):
		return exitcode.WithHint(exitcode.APIRefused,
			fmt.Errorf("the store has no filter with --form-id %d (the API answered %q)", noFilter.FormID, noFilter.Err.Message),
			"--form-id must be the id of an existing filter: `storectl catalog settings` lists the store's filters and their ids")
	case refused && refusal.Status == http.StatusUnprocessableEntity:
		return exitcode.WithHint(exitcode.APIRefused, err,
			fmt.Sprintf("the server's message says which parameter; run `%s --help` for the flags", commandPath))
	}
	return err
}

func serverSays(msg string) string {
	if msg == "" {
		return ""
	}
	return ": " + msg
}
