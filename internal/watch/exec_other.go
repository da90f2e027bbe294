//go:build !unix

package watch

import "os/exec"

// killGroup: without process groups, a cancelled command's process is
// killed (exec's default).
func killGroup(*exec.Cmd) {}
