package catalog

import (
	"errors"
	"testing"

	"github.com/storectl/storectl/internal/api/flex"
)

func pagination(total, per, current, last int64, more bool) *Pagination {
	i := func(v int64) flex.Int { return flex.Int{Value: v, Valid: true} }
	return &Pagination{Total: i(total), PerPage: i(per), CurrentPage: i(current), LastPage: i(last), HasMorePages: flex.Bool{Value: more, Valid: true}}
}

// A listing that announces a later last page with every page is stopped
// once it passes twice its first count of pages and 100 more; one that
// holds still is read to its end.
func TestPagesStopAListingThatKeepsGrowing(t *testing.T) {
	var p Pages
	for page := int64(1); ; page++ {
		last := 2 + page*10 // 10 pages more with every page read
		stop, err := p.After(int(page), 200, pagination(400, 200, page, last, true))
		var g *GrowthError
		if errors.As(err, &g) {
			if g.FirstTotal != 400 || g.Bound != 104 || page > 11 {
				t.Errorf("stopped at page %d: %v", page, err)
			}
			return
		}
		if err != nil || stop != MorePages {
			t.Fatalf("page %d: %v %v", page, stop, err)
		}
		if page > MaxPage {
			t.Fatal("never stopped")
		}
	}
}

func TestPagesReadAStillListingToItsEnd(t *testing.T) {
	var p Pages
	for page := int64(1); page <= 300; page++ {
		stop, err := p.After(int(page), 200, pagination(60000, 200, page, 300, page < 300))
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		if want := map[bool]PageStop{true: MorePages, false: LastPage}[page < 300]; stop != want {
			t.Fatalf("page %d: %v", page, stop)
		}
	}
}
