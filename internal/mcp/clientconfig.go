package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/storectl/storectl/internal/exitcode"
)

// Clients are the assistants --print-config writes a configuration for.
var Clients = []string{"claude", "vscode", "cursor"}

// ClientConfig is the configuration that makes client start this server:
// the command (this binary) and its arguments, in the file's own shape
// (Claude Desktop's claude_desktop_config.json and Cursor's mcp.json hold
// "mcpServers", VS Code's mcp.json "servers" with a type). It holds no
// token: the server reads them from the keyring as the command line does.
func ClientConfig(client, command string, args []string) ([]byte, error) {
	type stdio struct {
		Type    string   `json:"type,omitempty"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	var v any
	switch client {
	case "claude", "cursor":
		v = struct {
			Servers map[string]stdio `json:"mcpServers"`
		}{map[string]stdio{"storectl": {Command: command, Args: args}}}
	case "vscode":
		v = struct {
			Servers map[string]stdio `json:"servers"`
		}{map[string]stdio{"storectl": {Type: "stdio", Command: command, Args: args}}}
	default:
		return nil, exitcode.UsageHint(fmt.Errorf("--print-config %q: no such client", client), "use claude, vscode or cursor")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
