package catalog

import (
	"bytes"
	"context"
	"encoding/json"
)

// SettingsResult is the settings answer. The spec shows neither its
// parameters nor its shape, so it stays raw.
type SettingsResult struct {
	Raw json.RawMessage // the whole body as sent
	// Data is the object under "data" when the body is a success envelope
	// ({"success": true, "data": {...}}), else the whole body.
	Data json.RawMessage
}

// Settings calls GET /settings (scope read:config).
func (c *Client) Settings(ctx context.Context) (*SettingsResult, error) {
	raw, err := c.get(ctx, "/settings", nil)
	if err != nil {
		return nil, err
	}
	return &SettingsResult{Raw: raw, Data: unwrapData(raw)}, nil
}

func unwrapData(raw json.RawMessage) json.RawMessage {
	var env struct {
		Success json.RawMessage `json:"success"`
		Data    json.RawMessage `json:"data"`
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &env) != nil {
		return raw
	}
	data := bytes.TrimSpace(env.Data)
	if !isSet(env.Success) || len(data) == 0 || data[0] != '{' {
		return raw
	}
	return data
}
