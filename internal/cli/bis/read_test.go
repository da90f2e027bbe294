package bis

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/sandbox"
)

func TestFormTableAndLosslessJSON(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form")
	forms := testForms(t, e)
	opts := &FormOptions{ErrOut: e.ErrOut, Printer: e.F.Printer, Forms: forms}
	if err := runForm(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	out := e.Out.String()
	for _, want := range []string{"size_worn     select         Size you wear", "XS, S, M, L, XL, XXL", "I agree to the privacy policy"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "<") {
		t.Errorf("HTML on the terminal:\n%s", out)
	}

	e.Out.Reset()
	e.Settings.Output = "json"
	if err := runForm(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.Out.String(), `"label": "<strong>Size</strong> you wear"`) {
		t.Errorf("json is not the server's:\n%s", e.Out)
	}
	if n := len(requests(e, "GET /shop-api/back-in-stock/form")); n != 1 {
		t.Errorf("%d form requests; the second run should use the cache", n)
	}
	opts.Refresh = true
	if err := runForm(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if n := len(requests(e, "GET /shop-api/back-in-stock/form")); n != 2 {
		t.Errorf("--refresh did not refetch (%d requests)", n)
	}
}

func TestFormCacheIsPerStore(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form")
	forms := testForms(t, e)
	writeCache(t, forms, `[{"id":"only","label":"Only","type":"text"}]`)
	e.Settings.BaseURL = "https://other.example"
	form, err := forms.Load(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	if form.Cached || len(form.Fields) != 10 {
		t.Errorf("a cache of another store was used: %+v", form.Fields)
	}
}

func listOpts(e *clitest.Env) *ListOptions {
	return &ListOptions{ShopDeps: e.F.ShopDeps(), Pages: cmdutil.PageFlags{Page: 1}}
}

func TestListPageAndAll(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/list")
	opts := listOpts(e)
	opts.Pages.Page = 2
	if err := runList(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(e.Out.String(), "\n"); lines != 16 {
		t.Errorf("%d lines, want header + 15:\n%s", lines, e.Out)
	}
	if !strings.Contains(e.ErrOut.String(), "page 2 of 22 · 320 total · --page 3 or --all for more") {
		t.Errorf("footer: %s", e.ErrOut)
	}

	e.Out.Reset()
	e.Settings.Output = "json"
	opts.Pages = cmdutil.PageFlags{Page: 1, All: true}
	if err := runList(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var items []map[string]any
	if err := json.Unmarshal(e.Out.Bytes(), &items); err != nil || len(items) != 320 {
		t.Fatalf("--all json: %d items, %v", len(items), err)
	}
	if len(items[0]) != 11 {
		t.Errorf("list item keys: %v", items[0])
	}
}

func TestGetShowsContentAndEvents(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/get/*")
	opts := &GetOptions{ShopDeps: e.F.ShopDeps(), ID: "10005"}
	if err := runGet(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	out := e.Out.String()
	for _, want := range []string{"Opened:        2026-07-03 20:21 shop time", "Clicked:       no", "Form answers", "Size you wear:", "Status:        sent"} {
		if !strings.Contains(out, want) {
			t.Errorf("get lacks %q:\n%s", want, out)
		}
	}
	e.Out.Reset()
	e.Settings.Output = "json"
	if err := runGet(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.Out.String(), `"content": "{\"full_name\"`) || !strings.Contains(e.Out.String(), `"clicked": 0`) {
		t.Errorf("json not lossless:\n%s", e.Out)
	}

	opts.ID = "abc"
	wantCode(t, runGet(context.Background(), opts), exitcode.Usage)
	opts.ID = "1"
	wantCode(t, runGet(context.Background(), opts), exitcode.APIRefused)
}

func TestGetSanitisesServerStrings(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/get/*")
	// The demo's eighth submission has a product title with an escape
	// sequence that would retitle the terminal.
	opts := &GetOptions{ShopDeps: e.F.ShopDeps(), ID: "10008"}
	if err := runGet(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(e.Out.String(), 0x1b) {
		t.Errorf("escape sequence reached the terminal:\n%q", e.Out)
	}
}

// --all walks with shop.Walk like the export: rows that arrive while it
// pages (more than a page at once) push rows onto later pages, and rows that
// leave pull them up; each row is listed once and stderr says the list
// changed.
func TestListAllWhileTheListChanges(t *testing.T) {
	for _, tc := range []struct {
		name     string
		add      int
		remove   int
		end      int
		listedAt int
		left     string
	}{
		{"+25", 25, 0, 345, 345, ""},
		{"-3", 0, 3, 317, 320, " (3 of them have left the store since)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := sandbox.NewMemoryStore(sandbox.DemoState())
			hook := &onRequest{n: 2, fn: func() { // after page 2
				if tc.add > 0 {
					_ = sandbox.AddSubmissions(store, tc.add, time.Now())
				}
				_ = store.Update(func(st *sandbox.State) error { // the newest, already listed
					st.Submissions = st.Submissions[:len(st.Submissions)-tc.remove]
					return nil
				})
			}}
			e := clitest.New(t, clitest.WithOutput("json"), clitest.WithSandbox(func(o *sandbox.Options) { o.Store, o.Log = store, hook }))
			e.Sends("GET /shop-api/back-in-stock/list")
			opts := listOpts(e)
			opts.Pages = cmdutil.PageFlags{Page: 1, All: true}
			if err := runList(context.Background(), opts); err != nil {
				t.Fatal(err)
			}
			var items []struct {
				ID json.Number `json:"id"`
			}
			if err := json.Unmarshal(e.Out.Bytes(), &items); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, it := range items {
				if seen[it.ID.String()] {
					t.Fatalf("id %s listed twice", it.ID)
				}
				seen[it.ID.String()] = true
			}
			want := fmt.Sprintf("the list changed while it was read: 320 submissions at the start, %d at the end; each listed once%s\n", tc.end, tc.left)
			if len(seen) != tc.listedAt || !strings.Contains(e.ErrOut.String(), want) {
				t.Errorf("%d listed, want %d; stderr: %s", len(seen), tc.listedAt, e.ErrOut)
			}
		})
	}
}
