package cmdutil

import (
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
)

// ShopZone is the shop's time zone, in which the API sends some times
// without naming it (offer dates, opens and clicks): the profile's
// shop_timezone, UTC when it is not set (set says which). A bad value is
// a usage error naming the setting.
func ShopZone(s *config.Settings) (zone *time.Location, set bool, err error) {
	if s.ShopTimezone == "" {
		return time.UTC, false, nil
	}
	zone, err = config.ParseZone(s.ShopTimezone)
	if err != nil {
		return nil, false, exitcode.Wrap(exitcode.Usage, fmt.Errorf("shop_timezone: %w", err))
	}
	return zone, true, nil
}
