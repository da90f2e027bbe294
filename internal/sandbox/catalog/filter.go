package catalog

import "net/url"

// Filter serves GET /sfs/v1/filter.
func (c *Catalog) Filter(q url.Values) (int, []byte) {
	return unprocessable("not implemented yet")
}
