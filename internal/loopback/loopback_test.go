package loopback

import "testing"

func TestHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "LOCALHOST.": false, "localhost.": false, "127.0.0.1.": false, "[::1].": false, "127.0.0.1": true, "127.9.9.9": true, "::1": true, "[::1]": true,
		"::ffff:127.0.0.1": true, "10.0.0.1": false, "example.com": false, "localhost.example.com": false,
		"0.0.0.0": false, "": false, "127.0.0.1.nip.io": false,
	} {
		if got := Host(host); got != want {
			t.Errorf("Host(%q) = %v, want %v", host, got, want)
		}
	}
}
