package catalog

import "net/url"

// Search serves GET /sfs/v1/search.
func (c *Catalog) Search(q url.Values) (int, []byte) {
	return unprocessable("not implemented yet")
}
