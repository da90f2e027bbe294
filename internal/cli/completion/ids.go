package completion

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/output"
)

// Timeout bounds an id completion from start to end, keyring and request
// included: a shell waiting on <Tab> must never hang.
var Timeout = 3 * time.Second

// IDSource is a shop API list whose first page offers ids to complete.
type IDSource struct {
	// List fetches the first page.
	List func(ctx context.Context, c *shop.Client) (*shop.Page, error)
	// Describe are the item fields shown beside each id, joined by " · ".
	Describe []string
}

// Submissions are back-in-stock submissions, for `bis get`.
var Submissions = IDSource{
	List:     func(ctx context.Context, c *shop.Client) (*shop.Page, error) { return c.ListSubmissions(ctx, 1) },
	Describe: []string{"customer_email", "product_title"},
}

// Offers are pre-order offers, for `preorder get`.
var Offers = IDSource{
	List:     func(ctx context.Context, c *shop.Client) (*shop.Page, error) { return c.ListOffers(ctx, 1, "") },
	Describe: []string{"offer_name", "apply_to"},
}

// Rules are coming-soon rules, for `comingsoon get` and `comingsoon delete`.
var Rules = IDSource{
	List:     func(ctx context.Context, c *shop.Client) (*shop.Page, error) { return c.ListRules(ctx, 1) },
	Describe: []string{"name", "apply_to"},
}

// OneID completes the single ID argument of a `get` command.
func OneID(f *cmdutil.Factory, src IDSource) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return fetchIDs(cmd.Context(), f, src, args, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// ManyIDs completes any number of ID arguments (`comingsoon delete ID...`),
// leaving out the ids already given.
func ManyIDs(f *cmdutil.Factory, src IDSource) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return fetchIDs(cmd.Context(), f, src, args, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// fetchIDs makes one request for the first page and returns its ids. Any
// failure — no token, no network, a slow keyring, a 429 — completes nothing
// and says nothing: the shell's own line must stay clean.
func fetchIDs(ctx context.Context, f *cmdutil.Factory, src IDSource, exclude []string, prefix string) []cobra.Completion {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()

	// The keyring call behind ShopClient takes no context, so the whole
	// fetch runs aside and is abandoned when the time is up.
	done := make(chan []cobra.Completion, 1)
	go func() {
		c, err := f.ShopClient()
		if err != nil {
			done <- nil
			return
		}
		page, err := src.List(ctx, c)
		if err != nil {
			done <- nil
			return
		}
		done <- candidates(page.Items, src.Describe, exclude, prefix)
	}()
	select {
	case out := <-done:
		return out
	case <-ctx.Done():
		return nil
	}
}

func candidates(items []json.RawMessage, describe, exclude []string, prefix string) []cobra.Completion {
	var out []cobra.Completion
	for _, raw := range items {
		obj, err := output.ParseObject(raw)
		if err != nil {
			continue
		}
		id := obj.String("id")
		if !safeID(id) || !strings.HasPrefix(id, prefix) || slices.Contains(exclude, id) {
			continue
		}
		var parts []string
		for _, path := range describe {
			if v := obj.String(path); v != "" {
				parts = append(parts, v)
			}
		}
		out = append(out, withDesc(id, strings.Join(parts, " · ")))
	}
	return out
}

// safeID keeps out anything a shell would have to quote: the contract's ids
// are plain numbers, and a completion is typed into the user's command line.
func safeID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
