package ruleform

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// PlanDigest names a plan as printed, step by step (`comingsoon apply
// --dry-run -o json`'s items, which hold each create's body and each
// delete's batch): two plans with the same digest send the same requests.
// Whitespace between tokens does not count, so the items as a printer
// indented them and as they were encoded give the same digest.
func PlanDigest(lines []json.RawMessage) string {
	h := sha256.New()
	var compact bytes.Buffer
	for _, l := range lines {
		compact.Reset()
		if err := json.Compact(&compact, l); err != nil {
			compact.Write(l) // not JSON: its bytes as they are
		}
		h.Write(compact.Bytes())
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}
