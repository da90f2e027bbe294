package bis

import (
	"encoding/json"
	"errors"
)

// splitArray returns the elements of a JSON array as sent.
func splitArray(raw json.RawMessage) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	if items == nil {
		return nil, errors.New("not a JSON array")
	}
	return items, nil
}
