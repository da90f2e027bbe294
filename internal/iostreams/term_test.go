package iostreams

import "testing"

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestColorEnabledFollowsEachVariable(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		vt   bool // stdout is a terminal that takes escapes
		want bool
	}{
		{"terminal", nil, true, true},
		{"pipe", nil, false, false},
		{"NO_COLOR set", map[string]string{"NO_COLOR": "1"}, true, false},
		{"NO_COLOR empty counts as unset", map[string]string{"NO_COLOR": ""}, true, true},
		{"CLICOLOR=0", map[string]string{"CLICOLOR": "0"}, true, false},
		{"CLICOLOR=1 does not force", map[string]string{"CLICOLOR": "1"}, false, false},
		{"CLICOLOR_FORCE=1 into a pipe", map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{"CLICOLOR_FORCE=0 forces nothing", map[string]string{"CLICOLOR_FORCE": "0"}, false, false},
		{"CLICOLOR_FORCE wins over NO_COLOR, as in go-gh", map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false, true},
		{"TERM=dumb", map[string]string{"TERM": "dumb"}, true, false},
		{"TERM=xterm", map[string]string{"TERM": "xterm-256color"}, true, true},
		{"Windows console without VT processing", nil, false, false},
	}
	for _, c := range cases {
		if got := ColorEnabled(envOf(c.env), c.vt); got != c.want {
			t.Errorf("%s: ColorEnabled = %v, want %v", c.name, got, c.want)
		}
	}
}
