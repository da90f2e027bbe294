package shop

import (
	"context"
)

// Ping makes the cheapest authenticated request the contract offers (the
// first page of coming-soon rules) and returns its pagination, so `auth
// login` and `auth status` can say what the token sees.
func (c *Client) Ping(ctx context.Context) (Pagination, error) {
	p, err := c.getPage(ctx, "/shop-api/coming-soon/list", pageQuery(1))
	if err != nil {
		return Pagination{}, err
	}
	return p.Pagination, nil
}
