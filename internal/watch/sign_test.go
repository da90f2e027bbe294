package watch

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"
)

func TestSignIsHMACOfTimestampDotBody(t *testing.T) {
	at := time.Unix(1767225600, 0)
	body := []byte(`{"id":"evt_1"}`)
	got := Sign("whsec_test", at, body)
	m := hmac.New(sha256.New, []byte("whsec_test"))
	m.Write([]byte("1767225600." + string(body)))
	if want := "t=1767225600,v1=" + hex.EncodeToString(m.Sum(nil)); got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
	if err := Verify("whsec_test", got, body, at.Add(time.Minute), 5*time.Minute); err != nil {
		t.Fatalf("Verify of a good signature: %v", err)
	}
}

func TestVerifyRefuses(t *testing.T) {
	at := time.Unix(1767225600, 0)
	body := []byte(`{"id":"evt_1"}`)
	good := Sign("s", at, body)
	for name, tc := range map[string]struct {
		secret, header, body string
		now                  time.Time
		want                 string
	}{
		"other secret":  {"t", good, string(body), at, "no v1 signature matches"},
		"changed body":  {"s", good, `{"id":"evt_2"}`, at, "no v1 signature matches"},
		"replayed late": {"s", good, string(body), at.Add(time.Hour), "away from now"},
		"no timestamp":  {"s", strings.Replace(good, "t=", "x=", 1), string(body), at, "no t= timestamp"},
		"no signature":  {"s", "t=1767225600", string(body), at, "no v1= signature"},
	} {
		err := Verify(tc.secret, tc.header, []byte(tc.body), tc.now, 5*time.Minute)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
}

func FuzzVerify(f *testing.F) {
	f.Add("t=1,v1=00", []byte("{}"))
	f.Add("t=1767225600,v1=abc,v1=def", []byte(`{"a":1}`))
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		_ = Verify("s", header, body, time.Unix(1767225600, 0), time.Hour)
		good := Sign("s", time.Unix(1767225600, 0), body)
		if err := Verify("s", good, body, time.Unix(1767225600, 0), time.Minute); err != nil {
			t.Fatalf("own signature refused: %v", err)
		}
	})
}
