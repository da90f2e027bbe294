//go:build !windows

package fsutil

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestCreateOutputWritesPipesDirectly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		data, _ := os.ReadFile(fifo)
		got <- string(data)
	}()
	out, err := CreateOutput(fifo, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write([]byte("rows\n")); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "rows\n" {
		t.Errorf("reader got %q", s)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", info.Mode(), err)
	}
}

// A character device and /dev/fd/N (a shell's >(…), /dev/stdout on a pipe)
// are written directly: nothing is renamed over them.
func TestCreateOutputWritesDevicesAndFDsDirectly(t *testing.T) {
	out, err := CreateOutput(os.DevNull, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.(*directFile); !ok {
		t.Fatalf("%s: %T, want a direct write", os.DevNull, out)
	}
	out.Write([]byte("rows\n"))
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(os.DevNull); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a device: %v %v", os.DevNull, info.Mode(), err)
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fdPath := fmt.Sprintf("/dev/fd/%d", w.Fd())
	if _, err := os.Stat(fdPath); err != nil {
		t.Skipf("no %s here: %v", fdPath, err)
	}
	got := make(chan string)
	go func() {
		data, _ := io.ReadAll(r)
		got <- string(data)
	}()
	out, err = CreateOutput(fdPath, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	out.Write([]byte("rows\n"))
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if s := <-got; s != "rows\n" {
		t.Errorf("the pipe's reader got %q", s)
	}
}
