package catalog

import "fmt"

// Pages follows a filter or search through its pages: what AfterPage
// says, and a stop when the listing grows past a bound derived from its
// first total, as a server answering every page with a later last_page (and
// fresh products) would make a client read, and hold, without end.
type Pages struct {
	firstTotal int64
	bound      int64 // the most pages the listing may reach; 0 before the first page
}

// GrowthError stops a listing whose last page ran past the bound.
type GrowthError struct {
	FirstTotal, LastPage, Bound int64
	Page                        int
}

func (e *GrowthError) Error() string {
	return fmt.Sprintf("the listing kept growing while it was read: %d products at the first page, and page %d announces a last page of %d, more than %d pages; stopped", e.FirstTotal, e.Page, e.LastPage, e.Bound)
}

// After is AfterPage for page, whose answer held got products and
// pagination pg, with the growth check: twice the first page's count of
// pages and 100 more. A first answer without a total leaves only MaxPage.
func (p *Pages) After(page, got int, pg *Pagination) (PageStop, error) {
	stop := AfterPage(page, got, pg)
	if pg == nil {
		return stop, nil
	}
	if page == 1 && pg.Total.Valid {
		per := pg.PerPage.Value
		if per <= 0 {
			per = int64(max(got, 1))
		}
		p.firstTotal = pg.Total.Value
		p.bound = 2*((max(pg.Total.Value, 0)+per-1)/per) + 100
	}
	if stop == MorePages && p.bound > 0 && (pg.LastPage.Value > p.bound || int64(page) >= p.bound) {
		return stop, &GrowthError{FirstTotal: p.firstTotal, LastPage: pg.LastPage.Value, Bound: p.bound, Page: page}
	}
	return stop, nil
}
