package credentials

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gofrs/flock"

	"github.com/storectl/storectl/internal/fsutil"
)

// File is the opt-in token file (--insecure-storage): JSON, mode 0600,
// separate from config.yaml so the config can be shared without secrets.
type File struct {
	Path string
}

type fileData struct {
	Profiles map[string]map[Kind]string `json:"profiles"`
}

func (f *File) load() (fileData, error) {
	d := fileData{Profiles: map[string]map[Kind]string{}}
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("cannot read credentials file: %w", err)
	}
	if runtime.GOOS != "windows" {
		if info, err := os.Stat(f.Path); err == nil && info.Mode().Perm()&0o077 != 0 {
			return d, fmt.Errorf("credentials file %s is readable by other users (mode %v): run `chmod 600 %s`", f.Path, info.Mode().Perm(), f.Path)
		}
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return d, fmt.Errorf("credentials file %s is not valid JSON (%v): fix or delete it and log in again", f.Path, err)
	}
	if d.Profiles == nil {
		d.Profiles = map[string]map[Kind]string{}
	}
	return d, nil
}

func (f *File) save(d fileData) error {
	for name, kinds := range d.Profiles {
		if len(kinds) == 0 {
			delete(d.Profiles, name)
		}
	}
	if len(d.Profiles) == 0 {
		err := os.Remove(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(f.Path, data, 0o600)
}

// Get returns "" when the file has no such token.
func (f *File) Get(profile string, kind Kind) (string, error) {
	if _, err := os.Stat(f.Path); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	d, err := f.load()
	if err != nil {
		return "", err
	}
	return d.Profiles[profile][kind], nil
}

func (f *File) Set(profile string, kind Kind, token string) error {
	return f.change(func(d fileData) {
		if d.Profiles[profile] == nil {
			d.Profiles[profile] = map[Kind]string{}
		}
		d.Profiles[profile][kind] = token
	})
}

func (f *File) Delete(profile string, kind Kind) error {
	if _, err := os.Stat(f.Path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return f.change(func(d fileData) { delete(d.Profiles[profile], kind) })
}

// lockWait bounds the wait for another process's read-modify-write of the
// file, which takes milliseconds; past it something is stuck.
const lockWait = 10 * time.Second

// change reads, edits and writes the file under a lock, so that two
// logins at once (two profiles in two terminals) both keep their token.
func (f *File) change(edit func(fileData)) error {
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return err
	}
	lock := flock.New(f.Path+".lock", flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	if locked, err := lock.TryLockContext(ctx, 5*time.Millisecond); !locked {
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("the credentials file %s is locked by another storectl process (waited %s): let it finish; if none is running, delete %s", f.Path, lockWait, lock.Path())
		}
		return fmt.Errorf("cannot lock the credentials file: %w", err)
	}
	defer func() { _ = lock.Close() }()
	d, err := f.load()
	if err != nil {
		return err
	}
	edit(d)
	return f.save(d)
}
